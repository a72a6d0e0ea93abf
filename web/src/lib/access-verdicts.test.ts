import { describe, expect, test } from "bun:test";
import { ACCESS_MESSAGES } from "@contracts/access-messages";
import {
  ACCESS_EXPIRED,
  INVALID_WITHOUT_REASON,
  NO_REASON_GIVEN,
  REFUSED_WITHOUT_REASON,
  SPECIAL_NOT_VERIFIED,
  answerOf,
  judgeSpecialAccess,
  judgeStreamVerdict,
} from "./access-verdicts";
import { ApiError } from "./api-client";

const refusedWith = (status: number, body: unknown) => Promise.reject(new ApiError(status, typeof body === "string" ? body : JSON.stringify(body), "Forbidden"));

describe("answerOf", () => {
  test("an OK body is an answer", async () => {
    expect(await answerOf(Promise.resolve({ valid: true, message: "Access granted!" }))).toEqual({ kind: "answered", body: { valid: true, message: "Access granted!" } });
  });

  test("a 4xx is a refusal carrying the server's message, or none", async () => {
    expect(await answerOf(refusedWith(403, { valid: false, message: ACCESS_MESSAGES.banned, error: ACCESS_MESSAGES.banned }))).toEqual({
      kind: "refused",
      reason: ACCESS_MESSAGES.banned,
    });
    expect(await answerOf(refusedWith(400, ""))).toEqual({ kind: "refused", reason: null });
  });

  test("a 5xx, a 429 or a network failure is no answer: the viewer stays and may try again", async () => {
    expect(await answerOf(refusedWith(503, "Service Unavailable"))).toEqual({ kind: "unreachable" });
    expect(await answerOf(refusedWith(429, { error: "Too many attempts. Please wait a moment and try again." }))).toEqual({ kind: "unreachable" });
    expect(await answerOf(Promise.reject(new TypeError("Failed to fetch")))).toEqual({ kind: "unreachable" });
  });

  test("an OK response that is not JSON is an answer with no body", async () => {
    expect(await answerOf(Promise.reject(new SyntaxError("Unexpected token <")))).toEqual({ kind: "answered", body: null });
  });
});

describe("judgeStreamVerdict (the stream page's refusals)", () => {
  test("a valid verdict lets the viewer in, with the server's message ('Access granted!')", () => {
    expect(judgeStreamVerdict({ kind: "answered", body: { valid: true, message: ACCESS_MESSAGES.granted } })).toEqual({ granted: true, message: "Access granted!" });
    expect(judgeStreamVerdict({ kind: "answered", body: { valid: true } })).toEqual({ granted: true, message: null });
  });

  test("an unknown or revoked code: 'Your access code has expired or is not valid.'", () => {
    expect(judgeStreamVerdict({ kind: "answered", body: { valid: false, message: ACCESS_MESSAGES.invalidCode } })).toEqual({ granted: false, reason: ACCESS_EXPIRED });
    expect(judgeStreamVerdict({ kind: "refused", reason: ACCESS_MESSAGES.invalidCode })).toEqual({ granted: false, reason: ACCESS_EXPIRED });
  });

  test("any other refusal is worded by the server, known to this page or not", () => {
    for (const message of [ACCESS_MESSAGES.wrongDevice, ACCESS_MESSAGES.banned, ACCESS_MESSAGES.tooManyAttempts, "The event has been cancelled."]) {
      expect(judgeStreamVerdict({ kind: "answered", body: { valid: false, message } })).toEqual({ granted: false, reason: message });
      expect(judgeStreamVerdict({ kind: "refused", reason: message })).toEqual({ granted: false, reason: message });
    }
  });

  test("the fallbacks: 'Invalid access code.' for a bare 'not valid', 'Failed to verify access.' for a bare refusal", () => {
    expect(judgeStreamVerdict({ kind: "answered", body: { valid: false } })).toEqual({ granted: false, reason: INVALID_WITHOUT_REASON });
    expect(judgeStreamVerdict({ kind: "answered", body: { valid: false, message: "  " } })).toEqual({ granted: false, reason: INVALID_WITHOUT_REASON });
    expect(judgeStreamVerdict({ kind: "refused", reason: null })).toEqual({ granted: false, reason: REFUSED_WITHOUT_REASON });
    expect(INVALID_WITHOUT_REASON).toBe("Invalid access code.");
    expect(REFUSED_WITHOUT_REASON).toBe("Failed to verify access.");
  });

  test("an answer that is no verdict at all: 'Failed to verify your access code'", () => {
    for (const body of [null, "ok", { message: "hello" }, { valid: "yes" }]) {
      expect(judgeStreamVerdict({ kind: "answered", body })).toEqual({ granted: false, reason: NO_REASON_GIVEN });
    }
    expect(NO_REASON_GIVEN).toBe("Failed to verify your access code");
  });

  test("no answer is neither yes nor no", () => {
    expect(judgeStreamVerdict({ kind: "unreachable" })).toEqual({ granted: null });
  });
});

describe("judgeSpecialAccess (only the status is read)", () => {
  test("OK lets the viewer in, whatever the body", () => {
    expect(judgeSpecialAccess({ kind: "answered", body: null })).toEqual({ granted: true, message: null });
  });

  test("any refusal: 'Your special access code could not be verified. Please contact support.'", () => {
    expect(SPECIAL_NOT_VERIFIED).toBe("Your special access code could not be verified. Please contact support.");
    expect(judgeSpecialAccess({ kind: "refused", reason: ACCESS_MESSAGES.banned })).toEqual({ granted: false, reason: SPECIAL_NOT_VERIFIED });
    expect(judgeSpecialAccess({ kind: "refused", reason: null })).toEqual({ granted: false, reason: SPECIAL_NOT_VERIFIED });
  });

  test("no answer is neither yes nor no", () => {
    expect(judgeSpecialAccess({ kind: "unreachable" })).toEqual({ granted: null });
  });
});
