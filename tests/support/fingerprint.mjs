/** Shared by the bun tests and the browser tests (plain JS, so Node can load it too). */
import { createHash, randomBytes } from "node:crypto";

/**
 * A browser's device fingerprint as the web app computes it (fingerprint = SHA-256 of the other fields).
 * @param {Record<string, unknown>} [overrides]
 */
export function makeFingerprint(overrides = {}) {
  const { fingerprint, ...fields } = {
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0",
    screenResolution: "1920x1080",
    colorDepth: 24,
    timezone: "Europe/London",
    language: "en-GB",
    platform: "Linux x86_64",
    webglVendor: "Mesa",
    webglRenderer: "llvmpipe",
    deviceToken: randomBytes(24).toString("hex"),
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  return { ...fields, fingerprint: fingerprint ?? createHash("sha256").update(JSON.stringify(fields)).digest("hex") };
}
