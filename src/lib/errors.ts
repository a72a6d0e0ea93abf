/** Errors services throw; one onError in app.ts turns them into `{ error }` with the status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The input field the message is about, for forms that show it beside that field. */
    readonly field?: string,
    /** More for the caller beside `error` (e.g. `{ reauth: true }`: ask for the password or a code, then retry). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const fieldError = (field: string, message: string) => new HttpError(400, message, {}, field);
export const unauthorized = (message = "Not logged in") => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new HttpError(429, message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (message: string, retryAfterSeconds: number) => new HttpError(503, message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** Said to whoever needed the database while it could not be used: a request's 503, a chat frame's error. */
export const BUSY_MESSAGE = "The server is busy. Please try again in a moment.";
/** The 503's Retry-After, in seconds: a busy SQLite frees up, and lost PostgreSQL connections are made again, in about that. */
export const BUSY_RETRY_AFTER_SECONDS = 2;
