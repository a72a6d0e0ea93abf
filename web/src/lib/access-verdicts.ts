import type { AccessVerdict, VerifyAccessBody } from "@contracts/access";
import { ACCESS_MESSAGES } from "@contracts/access-messages";
import { ApiError, api } from "@/lib/api-client";

/** The viewer's access toasts and texts. */
export const ACCESS_REQUIRED = { title: "Access Required", description: "Please enter your access code to continue." };
export const USERNAME_REQUIRED = { title: "Username Required", description: "Please enter a username to join the livestream chat." };
export const VERIFICATION_ERROR = { title: "Verification Error", description: "There was a problem verifying your access. Please try again." };
export const ACCESS_DENIED_TITLE = "Access Denied";
/** A stored code the server no longer knows (revoked, or never valid here). */
export const ACCESS_EXPIRED = "Your access code has expired or is not valid.";
/** An answer that says neither yes nor why. */
export const NO_REASON_GIVEN = "Failed to verify your access code";
/** A refusal (4xx) that carries no message. */
export const REFUSED_WITHOUT_REASON = "Failed to verify access.";
/** A verdict of "not valid" that carries no message. */
export const INVALID_WITHOUT_REASON = "Invalid access code.";
export const SPECIAL_NOT_VERIFIED = ACCESS_MESSAGES.specialNotVerified;

/**
 * How the server answered an access call: an OK body, a refusal (4xx) with its message, or no answer
 * (network, 5xx, or 429: too many checks from this address for now says nothing about the code).
 */
export type ServerAnswer = { kind: "answered"; body: unknown } | { kind: "refused"; reason: string | null } | { kind: "unreachable" };

export async function answerOf(request: Promise<unknown>): Promise<ServerAnswer> {
  try {
    return { kind: "answered", body: await request };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500 && error.status !== 429) return { kind: "refused", reason: error.serverMessage };
    // An OK answer whose body is not the JSON it claims to be.
    if (error instanceof SyntaxError) return { kind: "answered", body: null };
    return { kind: "unreachable" };
  }
}

/** What the stream page makes of an answer: let in (with the server's message), turned away (and why), or unknown. */
export type StreamJudgement = { granted: true; message: string | null } | { granted: false; reason: string } | { granted: null };

function isVerdict(body: unknown): body is Partial<AccessVerdict> & { valid: boolean } {
  return !!body && typeof body === "object" && "valid" in body && typeof body.valid === "boolean";
}

/** The server's reason as the stream page words it: an unknown code is "expired or not valid". */
function streamReason(message: unknown, fallback: string): string {
  if (message === ACCESS_MESSAGES.invalidCode) return ACCESS_EXPIRED;
  return typeof message === "string" && message.trim() !== "" ? message : fallback;
}

/** POST /api/verify-stream-access, read for `valid` and `message`. */
export function judgeStreamVerdict(answer: ServerAnswer): StreamJudgement {
  if (answer.kind === "unreachable") return { granted: null };
  if (answer.kind === "refused") return { granted: false, reason: streamReason(answer.reason, REFUSED_WITHOUT_REASON) };
  if (!isVerdict(answer.body)) return { granted: false, reason: NO_REASON_GIVEN };
  if (answer.body.valid) return { granted: true, message: typeof answer.body.message === "string" && answer.body.message ? answer.body.message : null };
  return { granted: false, reason: streamReason(answer.body.message, INVALID_WITHOUT_REASON) };
}

/** POST /api/verify-special-access, read for its status only. */
export function judgeSpecialAccess(answer: ServerAnswer): StreamJudgement {
  if (answer.kind === "unreachable") return { granted: null };
  if (answer.kind === "refused") return { granted: false, reason: SPECIAL_NOT_VERIFIED };
  return { granted: true, message: null };
}

/** POST /api/verify-access: is this code live and this name free? No device, no session. */
export function checkAccess(body: VerifyAccessBody): Promise<ServerAnswer> {
  return answerOf(api.post("/api/verify-access", body));
}
