import { z } from "zod";
import { TEXT_LIMITS, tooLong } from "./text-limits.ts";

/**
 * The admin team: roles, what each may do, and the payloads of the team, two-factor, session and audit
 * calls. Shared by the server (which checks every admin route against these) and the web app (which shows
 * only what the role may do).
 */
export const ROLES = ["owner", "operator", "support", "moderator"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  operator: "Operator",
  support: "Support",
  moderator: "Moderator",
};

/** What a role is for, in one line, for the invite form. */
export const ROLE_SUMMARIES: Record<Role, string> = {
  owner: "Everything, including the team, payments, price and currency",
  operator: "Event settings, stream source and key, chat rules, moderation, fake viewers",
  support: "Access codes, payments and refunds, users",
  moderator: "The chat: bans, timeouts, moderation log, chat export",
};

/**
 * Each capability and the roles that have it. A route names the one capability it needs; a role not listed
 * is refused (403). `users` lists viewers; with `userEmails` their e-mail addresses too.
 */
export const CAPABILITY_ROLES = {
  stats: ["owner", "operator", "support", "moderator"],
  team: ["owner"],
  audit: ["owner"],
  pricing: ["owner"],
  settings: ["owner", "operator"],
  stream: ["owner", "operator"],
  chatRules: ["owner", "operator"],
  fakeViewers: ["owner", "operator"],
  moderators: ["owner", "operator"],
  moderation: ["owner", "operator", "moderator"],
  users: ["owner", "operator", "support", "moderator"],
  userEmails: ["owner", "support"],
  codes: ["owner", "support"],
  payments: ["owner", "support"],
} as const satisfies Record<string, readonly Role[]>;
export type Capability = keyof typeof CAPABILITY_ROLES;

export function roleCan(role: Role, capability: Capability): boolean {
  return (CAPABILITY_ROLES[capability] as readonly Role[]).includes(role);
}

export function capabilitiesOf(role: Role): Capability[] {
  return (Object.keys(CAPABILITY_ROLES) as Capability[]).filter((c) => roleCan(role, c));
}

/** A code given as a second factor that is not right: the sign-in (or the step-up) stays open for another. */
export const WRONG_CODE = "That code is not right";
/** An authenticator code of a time step already used (the same code again, or an older one). */
export const USED_CODE = "That code was already used. Wait for the next one in your app.";
/** A recovery code crossed off already: each works once. */
export const USED_RECOVERY_CODE = "That recovery code was already used. Each one works once: enter another.";
/** The fifth wrong code ends the sign-in waiting for it. */
export const TOO_MANY_WRONG_CODES = "Too many wrong codes. Enter your password again.";
/** Browsers refuse passkeys on a bare IP address (WebAuthn's relying party must be a host name). */
export const PASSKEYS_NEED_A_HOST_NAME =
  "Passkeys need a host name: browsers refuse them on an IP address. Open the panel at the site's domain (or at localhost for a trial), with --public-url set to that address.";
/** The refusals of a second factor after which the same sign-in takes another code. */
export const CODE_REFUSALS_THAT_KEEP_THE_SIGN_IN: readonly string[] = [WRONG_CODE, USED_CODE, USED_RECOVERY_CODE];

export const roleSchema = z.enum(ROLES, { message: "Choose a role: owner, operator, support or moderator" });

/** A six-digit code from an authenticator app: ASCII digits only (no other scripts' digits, no spaces). */
export const totpCode = z
  .string({ message: "Enter the 6-digit code from your authenticator app" })
  .max(20, "Enter the 6-digit code from your authenticator app")
  .regex(/^[0-9]{6}$/, "Enter the 6-digit code from your authenticator app");

/** A recovery code as shown: ten letters and digits, with or without the dash in the middle. */
export const recoveryCode = z
  .string({ message: "Enter one of your recovery codes" })
  .max(40, "Enter one of your recovery codes")
  .transform((s) => s.trim().toLowerCase().replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, "Enter one of your recovery codes"));

const passwordField = z.string({ message: "Password is required" }).min(1, "Password is required").max(TEXT_LIMITS.password, tooLong("Password", TEXT_LIMITS.password));

/** A WebAuthn response as the browser gives it (checked in full by the WebAuthn library). */
export const webauthnResponse = z.looseObject({
  id: z.string().min(1).max(2048),
  rawId: z.string().min(1).max(2048),
  type: z.literal("public-key"),
  response: z.looseObject({}),
});

export const secondFactorBody = z.union([z.strictObject({ code: totpCode }), z.strictObject({ recoveryCode }), z.strictObject({ webauthn: webauthnResponse })], {
  message: "Enter the 6-digit code from your authenticator app",
});
export type SecondFactorBody = z.infer<typeof secondFactorBody>;

/** A step-up proof: the password (an account without two factors) or a second factor. */
export const reauthBody = z.union(
  [z.strictObject({ password: passwordField }), z.strictObject({ code: totpCode }), z.strictObject({ recoveryCode }), z.strictObject({ webauthn: webauthnResponse })],
  { message: "Enter your password or a code" },
);
export type ReauthBody = z.infer<typeof reauthBody>;

export const totpEnableBody = z.strictObject({ code: totpCode });
export const passwordAndCodeBody = z.strictObject({ password: passwordField, code: z.union([totpCode, recoveryCode]) });

export const newPasswordField = z.string().min(6, "Password must be at least 6 characters").max(200, "Password must be 200 characters or less");
export const changePasswordBody = z.strictObject({ current: passwordField, next: newPasswordField });

export const inviteBody = z.strictObject({
  email: z.string().trim().max(254).email("Please enter a valid email address"),
  role: roleSchema,
});
export const acceptInviteBody = z.strictObject({
  username: z
    .string()
    .trim()
    .min(3, "Username must be at least 3 characters")
    .max(50, "Username must be 50 characters or less")
    .regex(/^[\p{L}\p{N}_.-]+$/u, "Username may only use letters, numbers, '.', '-' and '_'"),
  password: newPasswordField,
});
export const roleBody = z.strictObject({ role: roleSchema });
export const requireTwoFactorBody = z.strictObject({ required: z.boolean() });
export const webauthnRegisterBody = z.strictObject({
  name: z.string().trim().min(1, "Name this key").max(TEXT_LIMITS.passkeyName, tooLong("The name", TEXT_LIMITS.passkeyName)).optional(),
  response: webauthnResponse,
});

export const auditQuery = z.object({
  actor: z.string().max(100).optional(),
  action: z.string().max(100).optional(),
  from: z.iso.datetime({ message: "from must be an ISO 8601 time", offset: true }).optional(),
  to: z.iso.datetime({ message: "to must be an ISO 8601 time", offset: true }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export type SecondFactorKind = "totp" | "webauthn" | "recovery";

export interface LoginAnswer {
  username?: string;
  /** Present when a second factor is needed: which ones this account can use. */
  secondFactor?: SecondFactorKind[];
  challengeExpiresAt?: string;
  /** The team requires two factors and this member has none yet: only enrolment is open. */
  mustEnrol?: boolean;
}

export interface AdminProfile {
  username: string;
  role: Role;
  capabilities: Capability[];
  twoFactor: { totp: boolean; webauthn: number; recoveryCodesLeft: number };
  mustEnrol: boolean;
}

export interface TeamMember {
  id: number;
  username: string;
  email: string;
  role: Role;
  twoFactor: boolean;
  lastSeenAt: string | null;
  createdAt: string;
  isYou: boolean;
}

export interface TeamView {
  members: TeamMember[];
  invites: { id: number; email: string; role: Role; expiresAt: string; createdBy: string }[];
  requireTwoFactor: boolean;
}

export interface AdminSessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  address: string;
  browser: string;
  current: boolean;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  address: string | null;
}

export const AUDIT_PAGE_SIZE = 50;
