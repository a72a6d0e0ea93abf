import type { DeviceFingerprint } from "../../contracts/access.ts";
import { isSpecialCode } from "./codes.ts";

export interface FingerprintVerdict {
  allowed: boolean;
  /** When set, save this as the code's fingerprint. */
  update?: DeviceFingerprint;
  /** Which of the spec's rules decided (1–8). */
  rule: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
}

const REQUIRED = ["fingerprint", "deviceToken", "screenResolution", "colorDepth", "timezone", "language", "platform"] as const;
const SAME_DEVICE_TRAITS = ["screenResolution", "colorDepth", "language", "timezone", "platform"] as const;

function isComplete(value: unknown): value is DeviceFingerprint {
  if (!value || typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  return REQUIRED.every((key) => record[key] !== undefined && record[key] !== null && record[key] !== "");
}

/**
 * The spec's one-device rule for a code, in its order (section 4, "Fingerprint check"):
 * 1 SCP-/MOD- pass · 2 nothing saved: pass and save · 3 incomplete data: pass · 4 exact match: pass ·
 * 5 same deviceToken: pass and update · 6 same screen, colour depth, language, timezone and platform:
 * pass and update · 7 otherwise deny · 8 an error while comparing: pass.
 * `savedOrJson` may be the stored JSON text; an unreadable one counts as an error (rule 8).
 */
export function checkDeviceFingerprint(savedOrJson: unknown, incoming: unknown, code: string): FingerprintVerdict {
  try {
    if (isSpecialCode(code)) return { allowed: true, rule: 1 };
    const saved = typeof savedOrJson === "string" ? (JSON.parse(savedOrJson) as unknown) : savedOrJson;
    if (saved === null || saved === undefined) {
      return isComplete(incoming) ? { allowed: true, update: incoming, rule: 2 } : { allowed: true, rule: 2 };
    }
    if (!isComplete(saved) || !isComplete(incoming)) return { allowed: true, rule: 3 };
    if (saved.fingerprint.toLowerCase() === incoming.fingerprint.toLowerCase()) return { allowed: true, rule: 4 };
    if (saved.deviceToken.toLowerCase() === incoming.deviceToken.toLowerCase()) return { allowed: true, update: incoming, rule: 5 };
    if (SAME_DEVICE_TRAITS.every((key) => String(saved[key]) === String(incoming[key]))) return { allowed: true, update: incoming, rule: 6 };
    return { allowed: false, rule: 7 };
  } catch {
    return { allowed: true, rule: 8 };
  }
}
