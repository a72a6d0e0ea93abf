import type { DeviceFingerprint } from "../../contracts/access.ts";
import { isSpecialCode } from "./codes.ts";

export interface FingerprintVerdict {
  allowed: boolean;
  /** When set, save this as the code's fingerprint. */
  update?: DeviceFingerprint;
  /**
   * Whether the request comes from the code's own device: its device token (or the code binds to this
   * device now). Only such a request may rename the code's viewer; a second device never renames the owner.
   */
  ownDevice: boolean;
  /** Which of the device check's rules decided (1–8, numbered as on checkDeviceFingerprint). */
  rule: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
}

const REQUIRED = ["fingerprint", "deviceToken", "screenResolution", "colorDepth", "timezone", "language", "platform"] as const;
const SAME_DEVICE_TRAITS = ["screenResolution", "colorDepth", "language", "timezone", "platform"] as const;

function isComplete(value: unknown): value is DeviceFingerprint {
  if (!value || typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  return REQUIRED.every((key) => record[key] !== undefined && record[key] !== null && record[key] !== "");
}

/** A fingerprint's device token (lower case), or null when it has none. */
function tokenOf(value: unknown): string | null {
  if (!value || typeof value !== "object") return null;
  const token = (value as Record<string, unknown>).deviceToken;
  return typeof token === "string" && token !== "" ? token.toLowerCase() : null;
}

/**
 * The one-device check for a code, its eight rules in this order (the first that applies decides):
 * 1 SCP-/MOD- pass · 2 nothing saved: pass and save · 3 incomplete data: pass · 4 exact match: pass ·
 * 5 same deviceToken: pass and update · 6 same screen, colour depth, language, timezone and platform:
 * pass and update · 7 otherwise deny · 8 an error while comparing: pass.
 *
 * Incomplete data (rule 3) is for a first visit whose browser cannot give every field: that visit binds
 * the code to its device token (rule 2 saves what it sent). Once a code is bound, a request with another
 * token is another device however complete or incomplete its data: it passes only by the exact
 * fingerprint (4) or, with every trait given on both sides, by the same traits (6). Rule 3 passes only a
 * saved fingerprint without a device token, which binds nothing; rule 8 only a saved fingerprint that
 * cannot be read (what the request sends was validated, and is never a way through).
 * `savedOrJson` may be the stored JSON text.
 */
export function checkDeviceFingerprint(savedOrJson: unknown, incoming: unknown, code: string): FingerprintVerdict {
  if (isSpecialCode(code)) return { allowed: true, ownDevice: true, rule: 1 };
  const incomingToken = tokenOf(incoming);
  const incomingPrint = incoming && typeof incoming === "object" ? (incoming as Record<string, unknown>).fingerprint : undefined;
  try {
    const saved = typeof savedOrJson === "string" ? (JSON.parse(savedOrJson) as unknown) : savedOrJson;
    if (saved === null || saved === undefined) {
      return incomingToken ? { allowed: true, update: incoming as DeviceFingerprint, ownDevice: true, rule: 2 } : { allowed: true, ownDevice: true, rule: 2 };
    }
    const savedToken = tokenOf(saved);
    if (!savedToken) return { allowed: true, ownDevice: false, rule: 3 };
    const record = saved as Record<string, unknown>;
    const sameToken = incomingToken === savedToken;
    if (typeof incomingPrint === "string" && (record.fingerprint as string).toLowerCase() === incomingPrint.toLowerCase()) {
      return { allowed: true, ownDevice: sameToken, rule: 4 };
    }
    if (sameToken) return { allowed: true, update: incoming as DeviceFingerprint, ownDevice: true, rule: 5 };
    if (isComplete(saved) && isComplete(incoming) && SAME_DEVICE_TRAITS.every((key) => String(saved[key]) === String(incoming[key]))) {
      return { allowed: true, update: incoming, ownDevice: false, rule: 6 };
    }
    return { allowed: false, ownDevice: false, rule: 7 };
  } catch {
    return { allowed: true, ownDevice: false, rule: 8 };
  }
}
