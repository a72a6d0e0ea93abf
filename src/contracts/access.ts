import { z } from "zod";
import { ACCESS_MESSAGES } from "./access-messages.ts";
import { emailSchema } from "./admin.ts";

/** Access-code and viewer-access payloads, shared by the server and the web app. */
export const CODE_PREFIX = { regular: "SKP-", moderator: "MOD-", test: "SCP-" } as const;

/** A fixed test code ("forced access": the access page lets a tester in with it under a made-up SCP-Admin name); accepted only where test codes are enabled. */
export const FORCED_ACCESS_CODE = "SCP-FORCED-ENTRY";
export const FORCED_ACCESS_EMAIL = "test@dreadcast.invalid";

export { ACCESS_MESSAGES };

export const LOST_CODE_MESSAGE = "If that e-mail address has an access code, we have sent it there. Check your inbox.";

// Control, format (zero-width), private-use and separator characters, plus the "blank" letters used to fake names.
const FORBIDDEN_IN_USERNAME = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\u2800]/u;
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Names nobody may chat under (compared case-insensitively); 'Guest' is refused with a message of its own. */
export const RESERVED_USERNAMES = ["admin", "administrator", "system", "moderator", "mod", "dreadcast", "staff", "support", "root", "owner"];

export const usernameSchema = z
  .string({ error: "Username is required" })
  // One spelling per name: "é" typed as one character or as e + accent is the same user.
  .normalize("NFC")
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(20, "Username must be at most 20 characters")
  .refine((name) => !FORBIDDEN_IN_USERNAME.test(name) && VISIBLE.test(name), "Username contains characters that are not allowed")
  // Compared in their plain form, so "ａｄｍｉｎ" in full-width letters is still "admin".
  .refine((name) => name.normalize("NFKC").toLowerCase() !== "guest", "Username cannot be 'Guest'")
  .refine((name) => !RESERVED_USERNAMES.includes(name.normalize("NFKC").toLowerCase()), ACCESS_MESSAGES.usernameReserved);

export const accessCodeSchema = z.string({ error: "Access code is required" }).trim().min(8, "Access code must be at least 8 characters").max(64, "Access code is too long");

const hex = (length: number, what: string) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${length}}$`), `${what} must be ${length} hex characters`);

/** The device fingerprint the browser computes (web/src/lib/fingerprint.ts); `fingerprint` is SHA-256 of the other fields. */
export const deviceFingerprintSchema = z.object({
  userAgent: z.string().max(1000),
  screenResolution: z.string().max(50),
  colorDepth: z.number().int().min(0).max(1024),
  timezone: z.string().max(100),
  language: z.string().max(100),
  platform: z.string().max(200),
  webglVendor: z.string().max(500),
  webglRenderer: z.string().max(500),
  deviceToken: hex(48, "deviceToken"),
  createdAt: z.union([z.string().max(64), z.number()]),
  fingerprint: hex(64, "fingerprint"),
});
export type DeviceFingerprint = z.infer<typeof deviceFingerprintSchema>;

const optionalEmail = z
  .union([z.literal(""), emailSchema])
  .optional()
  .transform((e) => (e ? e : undefined));

export const validateAccessBody = z.object({
  accessCode: accessCodeSchema,
  username: usernameSchema,
  email: optionalEmail,
  deviceFingerprint: deviceFingerprintSchema,
  // Informational only: the server decides from the code itself.
  isTestCode: z.boolean().optional(),
});
export type ValidateAccessBody = z.input<typeof validateAccessBody>;

export const verifyExistingAccessBody = z.object({
  accessCode: accessCodeSchema,
  username: usernameSchema,
  deviceFingerprint: deviceFingerprintSchema,
});
export type VerifyExistingAccessBody = z.input<typeof verifyExistingAccessBody>;

export const verifyStreamAccessBody = verifyExistingAccessBody;
export type VerifyStreamAccessBody = VerifyExistingAccessBody;

export const verifyAccessBody = z.object({ accessCode: accessCodeSchema, username: usernameSchema });
export type VerifyAccessBody = z.input<typeof verifyAccessBody>;

export const verifySpecialAccessBody = verifyAccessBody;

export const generateAccessCodeBody = z.object({
  paymentIntentId: z.string().trim().min(1, "paymentIntentId is required").max(255),
  // Accepted and not used: the code binds to a device when it is first used, not when it is bought.
  deviceFingerprint: z.unknown().optional(),
});
export type GenerateAccessCodeBody = z.input<typeof generateAccessCodeBody>;

export const lostCodeBody = z.object({ email: emailSchema });
export type LostCodeBody = z.infer<typeof lostCodeBody>;

/** validate-access, verify-existing-access, verify-stream-access (verify-existing reads only `valid`). */
export interface AccessVerdict {
  valid: boolean;
  message: string;
}

export interface GeneratedAccessCode {
  accessCode: string;
}

export interface ViewerProfile {
  username: string;
}

export interface ModeratorStatus {
  isModerator: boolean;
}

/**
 * GET /api/me: who this browser is on the stream page, answered (200) for anyone. A signed-in admin
 * watches without a code under their own name; a viewer is a moderator by their code or the panel.
 */
export interface StreamIdentity {
  role: "admin" | "moderator" | "viewer" | null;
  username: string | null;
}
