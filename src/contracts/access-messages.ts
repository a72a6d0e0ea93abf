/**
 * What the access endpoints say, apart from the zod schemas so the stream page can compare a refusal
 * without loading the schema library. `access.ts` re-exports them.
 */
export const ACCESS_MESSAGES = {
  granted: "Access granted!",
  invalidCode: "Invalid access code. Please try again.",
  wrongDevice: "Your access code cannot be used on this device. Each code is limited to one device.",
  specialNotVerified: "Your special access code could not be verified. Please contact support.",
  banned: "You have been banned from this event.",
  usernameTaken: "That username is already taken. Please choose another.",
  usernameReserved: "That username is reserved. Please choose another.",
  tooManyAttempts: "Too many attempts. Please wait a moment and try again.",
  notLoggedIn: "Please enter your access code to continue.",
} as const;
