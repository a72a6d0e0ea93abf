import { randomBytes } from "node:crypto";

/** A random hex token of `bytes` bytes (session ids, secrets). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("hex");
}
