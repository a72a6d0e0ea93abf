import type { DeviceFingerprint } from "../../src/contracts/access.ts";
import type { TestClient } from "../harness.ts";
import { makeFingerprint } from "./fingerprint.mjs";

export { makeFingerprint };

/** Another machine entirely: different token, screen and platform. */
export function otherDevice(): DeviceFingerprint {
  return makeFingerprint({ screenResolution: "390x844", colorDepth: 32, platform: "iPhone", userAgent: "Mozilla/5.0 (iPhone)", timezone: "America/New_York" });
}

/** Buys an access pass in demo mode with the test card and returns its code. */
export async function buyDemoCode(client: TestClient, email?: string): Promise<{ accessCode: string; paymentIntentId: string }> {
  const intent = await client.post("/api/create-payment-intent", { amount: 100, product: "livestream-access", ...(email ? { email } : {}) });
  if (intent.status !== 200) throw new Error(`create-payment-intent: ${intent.status} ${intent.text}`);
  const confirm = await client.post("/api/demo/confirm-payment", { clientSecret: intent.body.clientSecret, cardNumber: "4242 4242 4242 4242" });
  if (confirm.status !== 200) throw new Error(`confirm-payment: ${confirm.status} ${confirm.text}`);
  const code = await client.post("/api/generate-access-code", { paymentIntentId: intent.body.paymentIntentId, deviceFingerprint: makeFingerprint() });
  if (code.status !== 200) throw new Error(`generate-access-code: ${code.status} ${code.text}`);
  return { accessCode: code.body.accessCode, paymentIntentId: intent.body.paymentIntentId };
}

/** Lets a client in with a code and returns the response. */
export function enter(client: TestClient, accessCode: string, username: string, deviceFingerprint: DeviceFingerprint = makeFingerprint(), email?: string, headers?: Record<string, string>) {
  return client.post("/api/validate-access", { accessCode, username, deviceFingerprint, ...(email ? { email } : {}) }, headers);
}

/** Polls until `check` returns a value (or throws after timeoutMs, naming `what` was awaited). */
export async function eventually<T>(check: () => T | null | undefined | false | Promise<T | null | undefined | false>, timeoutMs = 5000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await Bun.sleep(25);
  }
}
