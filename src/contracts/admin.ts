import { z } from "zod";
import { TEXT_LIMITS, tooLong } from "./text-limits.ts";

/** Payloads of the admin auth calls, shared by the server and the web app. */
export const emailSchema = z.string().trim().max(254).email("Please enter a valid email address");

export const loginBody = z.object({
  username: z.string().trim().min(1, "Username is required").max(100, tooLong("Username", 100)),
  password: z.string().min(1, "Password is required").max(TEXT_LIMITS.password, tooLong("Password", TEXT_LIMITS.password)),
});
export type LoginBody = z.infer<typeof loginBody>;

export const createFirstAdminBody = z.object({
  username: z
    .string()
    .trim()
    .min(3, "Username must be at least 3 characters")
    .max(50, "Username must be 50 characters or less")
    .regex(/^[\p{L}\p{N}_.-]+$/u, "Username may only use letters, numbers, '.', '-' and '_'"),
  email: emailSchema,
  password: z.string().min(6, "Password must be at least 6 characters").max(200, "Password must be 200 characters or less"),
});
export type CreateFirstAdminBody = z.infer<typeof createFirstAdminBody>;

export interface FirstAdminStatus {
  needsFirstAdmin: boolean;
}
