import type { DeviceFingerprint } from "../../src/contracts/access.ts";
import type { AppContext } from "../../src/context.ts";
import { VIEWER_COOKIE } from "../../src/modules/access/sessions.ts";
import { adminOf, type TestApp, type TestClient } from "./app.ts";
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
export function enter(
  client: TestClient,
  accessCode: string,
  username: string,
  deviceFingerprint: DeviceFingerprint = makeFingerprint(),
  email?: string,
  headers?: Record<string, string>,
) {
  return client.post("/api/validate-access", { accessCode, username, deviceFingerprint, ...(email ? { email } : {}) }, headers);
}

export type Viewer = TestClient & { accessCode: string; username: string; fingerprint: ReturnType<typeof makeFingerprint> };

/**
 * A browser let in through the real API with a fresh code of `kind` (SCP test code, MOD made by the admin,
 * SKP bought). `headers` go with its own calls, e.g. an X-Forwarded-For for an app that trusts the proxy.
 */
export async function joinAs(app: TestApp, username: string, kind: "SKP" | "MOD" | "SCP" = "SCP", headers?: Record<string, string>): Promise<Viewer> {
  const client = app.client();
  let accessCode: string;
  if (kind === "SCP") accessCode = (await client.get("/api/test/generate-access-code", headers)).body.accessCode;
  else if (kind === "MOD") accessCode = (await (await adminOf(app)).post("/api/admin/generate-access-code", { kind: "MOD" })).body.code;
  else accessCode = (await buyDemoCode(client)).accessCode;
  const fingerprint = makeFingerprint();
  const res = await enter(client, accessCode, username, fingerprint, undefined, headers);
  if (res.body?.valid !== true) throw new Error(`could not enter as ${username}: ${res.status} ${res.text}`);
  return Object.assign(client, { accessCode, username, fingerprint });
}

/** A viewer let in straight through the database: a fresh code of `kind`, a user and a session cookie. */
export async function viewerSession(ctx: AppContext, username: string, kind: "SKP" | "MOD" | "SCP" = "SKP"): Promise<{ cookie: string; code: string; userId: number }> {
  const code = await ctx.access.issueAccessCode(kind);
  const userId = (await ctx.store.get<{ id: number }>("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?) RETURNING id", username, code.id, Date.now()))!.id;
  await ctx.store.run("UPDATE access_codes SET used = 1 WHERE id = ?", code.id);
  return { cookie: `${VIEWER_COOKIE}=${await ctx.viewerSessions.open(undefined, userId, code.id)}`, code: code.code, userId };
}

/**
 * A second user on an existing code, made straight in the database: the API would refuse it, so this
 * stands for a session that was opened before the code was banned.
 */
export async function sessionOnCode(app: TestApp, username: string, accessCode: string): Promise<TestClient> {
  const store = app.ctx.store;
  const codeId = (await store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", accessCode))!.id;
  const userId = (await store.get<{ id: number }>("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?) RETURNING id", username, codeId, Date.now()))!.id;
  const client = app.client();
  client.cookies.set(VIEWER_COOKIE, await app.ctx.viewerSessions.open(undefined, userId, codeId));
  return client;
}
