import type { AccessVerdict, ValidateAccessBody, VerifyExistingAccessBody } from "@contracts/access";
import { toast } from "@/hooks/use-toast";
import { ApiError, api } from "@/lib/api-client";
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

/** Stores the code and name, and marks this tab as verified (spec section 3's storage keys). */
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

/**
 * POST /api/validate-access with this device's fingerprint. Granted: remembered and toasted 'Access Granted'.
 * Refused: the server's message (or the generic one) for the form. Unreachable: the error toast and message.
 */
export async function enterWithCode(input: { accessCode: string; username: string; email?: string; method: VerificationMethod }): Promise<EntryOutcome> {
  const accessCode = normaliseAccessCode(input.accessCode);
  const username = input.username.trim();
  const email = input.email?.trim() || undefined;
  try {
    const body: ValidateAccessBody = {
      accessCode,
      username,
      email,
      deviceFingerprint: await getDeviceFingerprint(),
      isTestCode: isTestCode(accessCode),
    };
    const verdict = await api.post<AccessVerdict>("/api/validate-access", body);
    if (!verdict?.valid) return { granted: false, message: verdict?.message || INVALID_CODE_MESSAGE };
    rememberVerifiedAccess({ accessCode, username, email, method: input.method });
    toast({ title: "Access Granted", description: `Welcome, ${username}. The stream awaits.` });
    return { granted: true };
  } catch (error) {
    // A refusal with a reason (bad input, too many attempts) is the server's to word; anything else is ours.
    if (error instanceof ApiError && error.status < 500 && error.serverMessage) return { granted: false, message: error.serverMessage };
    toast({ variant: "destructive", title: "Error", description: "Failed to validate access code. Please try again." });
    return { granted: false, message: VALIDATION_ERROR_MESSAGE };
  }
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
