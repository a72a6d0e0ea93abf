import { createHash, randomBytes } from "node:crypto";

/** A random hex token of `bytes` bytes (session ids, secrets). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("hex");
}

/** SHA-256 of a text as hex: how a secret token (a session id, an invite, a code) is kept, so a copy of the database opens nothing. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
