import { HttpError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";

/** What a request that failed is answered: its status, the headers the failure adds, and `{ error }`. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string; field?: string };
}

/**
 * The answer to an error our own code threw: a typed error its status and message; the database held by
 * another writer past busy_timeout (5 s) a 503 saying so; anything else a logged 500. The app's `onError`
 * and the routes served outside the framework both answer through this.
 */
export function errorAnswer(error: unknown, log: Logger): ErrorAnswer {
  if (error instanceof HttpError) {
    return { status: error.status, headers: error.headers, body: error.field ? { error: error.message, field: error.field } : { error: error.message } };
  }
  if ((error as { code?: unknown } | null)?.code === "SQLITE_BUSY") {
    log.warn(`database busy: ${(error as Error).message}`);
    return { status: 503, headers: { "retry-after": "2" }, body: { error: "The server is busy. Please try again in a moment." } };
  }
  log.error("unhandled error", error);
  return { status: 500, headers: {}, body: { error: "Internal server error" } };
}
