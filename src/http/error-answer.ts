import { InvalidTextError, type Store } from "../db/store.ts";
import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, HttpError } from "../lib/errors.ts";
import { LastingFailure } from "../lib/lasting-failure.ts";
import type { Logger } from "../lib/logger.ts";

/** What a request that failed is answered: its status, the headers the failure adds, and `{ error }`. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string; field?: string };
}

/** Answers the errors of one app's requests. */
export type ErrorAnswerer = (error: unknown) => ErrorAnswer;

/** A value the database cannot hold (a NUL character in text): the request was bad, not the server. */
export const INVALID_TEXT_MESSAGE = "The request contains characters that are not allowed.";

/** While the database is away, the 503s it causes are logged once, and again after this long without one. */
const OUTAGE_QUIET_MS = 30_000;

/**
 * The answer to an error our own code threw: a typed error its status and message; the database out of
 * reach — PostgreSQL lost or refusing, SQLite held by another writer past busy_timeout — a 503 saying so
 * with Retry-After (logged once while it lasts); anything else a logged 500. The app's `onError` and the
 * routes served outside the framework both answer through the one made here.
 */
export function errorAnswerer(store: Pick<Store, "isUnavailable">, log: Logger): ErrorAnswerer {
  const outage = new LastingFailure(log, "database unavailable, requests that need it are answered 503", "database answering again", { quietMs: OUTAGE_QUIET_MS });
  return (error) => {
    if (error instanceof HttpError) {
      return { status: error.status, headers: error.headers, body: { ...error.extra, error: error.message, ...(error.field ? { field: error.field } : {}) } };
    }
    if (error instanceof InvalidTextError) return { status: 400, headers: {}, body: { error: INVALID_TEXT_MESSAGE } };
    if (store.isUnavailable(error)) {
      outage.failed(error);
      return { status: 503, headers: { "retry-after": String(BUSY_RETRY_AFTER_SECONDS) }, body: { error: BUSY_MESSAGE } };
    }
    log.error("unhandled error", error);
    return { status: 500, headers: {}, body: { error: "Internal server error" } };
  };
}

/** An answer as the response the routes served outside the framework send, with their own headers under the failure's. */
export function errorResponse(answer: ErrorAnswer, headers: Record<string, string>): Response {
  return Response.json(answer.body, { status: answer.status, headers: { ...headers, ...answer.headers } });
}
