import type { AccessVerdict, ValidateAccessBody, VerifyExistingAccessBody } from "@contracts/access";
import { ACCESS_MESSAGES } from "@contracts/access-messages";
import { toast, toastError } from "@/hooks/use-toast";
import { answerOf, checkAccess, type ServerAnswer } from "@/lib/access-verdicts";
import { api } from "@/lib/api-client";
import { getDeviceFingerprint } from "@/lib/fingerprint";
import { LOCAL_KEYS, SESSION_KEYS, writeLocal, writeSession } from "@/lib/storage";

/** Letting a viewer in from the access pages: the server's check, then what the browser remembers. */
export type VerificationMethod = "access-code" | "test-code" | "forced-access" | "existing-access";

export const INVALID_CODE_MESSAGE = "Invalid access code. Please try again.";
export const VALIDATION_ERROR_MESSAGE = "An error occurred while validating your access code. Please try again.";

export function isTestCode(code: string): boolean {
  return code.trim().toUpperCase().startsWith("SCP-");
}

/** The code as the server stores it: no spaces, upper case. */
export function normaliseAccessCode(code: string): string {
  return code.replace(/\s+/g, "").toUpperCase();
}

/** Stores the code, name and e-mail in local storage, and marks this tab as verified in session storage (when, how, under which name). */
export function rememberVerifiedAccess(input: { accessCode: string; username: string; email?: string; method: VerificationMethod }): void {
  writeLocal(LOCAL_KEYS.accessCode, input.accessCode);
  writeLocal(LOCAL_KEYS.username, input.username);
  if (input.email) writeLocal(LOCAL_KEYS.email, input.email);
  writeSession(SESSION_KEYS.accessVerified, "true");
  writeSession(SESSION_KEYS.verificationTimestamp, String(Date.now()));
  writeSession(SESSION_KEYS.verificationMethod, input.method);
  writeSession(SESSION_KEYS.username, input.username);
}

export type EntryOutcome = { granted: true } | { granted: false; message: string };

type Entry = { accessCode: string; username: string; email?: string; method: VerificationMethod };

/**
 * Asks the server with `ask`. Granted: remembered and toasted 'Access Granted'. Refused: the server's
 * message (or the generic one) for the form. Unreachable: the error toast and message.
 */
async function enter(input: Entry, ask: (entry: Entry) => Promise<ServerAnswer>): Promise<EntryOutcome> {
  const entry = { ...input, accessCode: normaliseAccessCode(input.accessCode), username: input.username.trim(), email: input.email?.trim() || undefined };
  const answer = await ask(entry);
  if (answer.kind === "unreachable") {
    toastError("Failed to validate access code. Please try again.");
    return { granted: false, message: VALIDATION_ERROR_MESSAGE };
  }
  // A refusal with a reason (bad input, too many attempts, a name taken) is the server's to word.
  if (answer.kind === "refused") return { granted: false, message: answer.reason || INVALID_CODE_MESSAGE };
  const verdict = answer.body as AccessVerdict | null;
  if (!verdict?.valid) return { granted: false, message: verdict?.message || INVALID_CODE_MESSAGE };
  rememberVerifiedAccess(entry);
  toast({ title: "Access Granted", description: `Welcome, ${entry.username}. The stream awaits.` });
  return { granted: true };
}

/** The /access form: POST /api/validate-access with this device's fingerprint, which also opens the viewer session. */
export function enterWithCode(input: Entry): Promise<EntryOutcome> {
  const validate = async ({ accessCode, username, email }: Entry) => {
    const body: ValidateAccessBody = { accessCode, username, email, deviceFingerprint: await getDeviceFingerprint(), isTestCode: isTestCode(accessCode) };
    return api.post<AccessVerdict>("/api/validate-access", body);
  };
  return enter(input, (entry) => answerOf(validate(entry)));
}

/**
 * The shell variant of the form: POST /api/verify-access (code live, name free; only its status is read).
 * The device check and the viewer session follow on the stream page.
 */
export function enterWithCheck(input: Entry): Promise<EntryOutcome> {
  return enter(input, async ({ accessCode, username }) => {
    const answer = await checkAccess({ accessCode, username });
    return answer.kind === "answered" ? { kind: "answered", body: { valid: true, message: ACCESS_MESSAGES.granted } } : answer;
  });
}

/** POST /api/verify-existing-access for the stored code and name; only `valid` is read. Errors are "not valid". */
export async function verifyExistingAccess(accessCode: string, username: string): Promise<boolean> {
  try {
    const body: VerifyExistingAccessBody = { accessCode, username, deviceFingerprint: await getDeviceFingerprint() };
    const verdict = await api.post<AccessVerdict>("/api/verify-existing-access", body);
    return verdict?.valid === true;
  } catch {
    return false;
  }
}
