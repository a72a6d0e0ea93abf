import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { adminSession, STAND_IN_PAGE, startTestApp, type TestApp } from "../support/app.ts";
import { buyDemoCode, makeFingerprint, viewerSession } from "../support/viewer.ts";
import { runCli } from "../support/cli.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { tempDir } from "../support/hardening.ts";

/** The Host header is the sender's to choose: it never reaches an e-mail, and one that makes no address is a 400. */

/** One HTTP/1.1 request written by hand, so that the Host header is exactly what an attacker sends. */
function rawRequest(url: string, method: string, path: string, host: string, body = "", headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `host: ${host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(method === "GET" ? [] : ["content-type: application/json", `content-length: ${Buffer.byteLength(body)}`]),
    "connection: close",
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${body}`));
    const timer = setTimeout(() => socket.destroy(new Error(`${method} ${path} got no answer`)), 5000);
    socket.on("data", (chunk) => (out += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0);
      resolve({ status, text: out.slice(out.indexOf("\r\n\r\n") + 4) });
    });
  });
}

describe("links in e-mail never come from a request's Host header", () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ smtpUrl: smtp.url, mailFrom: "crypt@dreadcast.test" });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const evil = (path: string, body: unknown, headers: Record<string, string> = {}) => rawRequest(app.url, "POST", path, "evil.example", JSON.stringify(body), headers);

  test("the lost-code e-mail asked for with Host: evil.example links to the address the server listens on", async () => {
    const { accessCode } = await buyDemoCode(app.client(), "victim@example.com");
    await smtp.waitFor((m) => m.text.includes(accessCode) && m.to.includes("victim@example.com"));
    expect((await evil("/api/lost-code", { email: "victim@example.com" })).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes("victim@example.com") && m.text.includes("You asked for"));
    expect(mail.text).toContain(accessCode);
    expect(mail.text).toContain(`${app.url}/access`);
    expect(mail.text + mail.html).not.toContain("evil.example");
  });

  test("a purchase, an entry with an address and an admin's sending, each made with Host: evil.example", async () => {
    const intent = JSON.parse((await evil("/api/create-payment-intent", { amount: 100, product: "livestream-access", email: "buyer@example.com" })).text);
    expect((await evil("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242 4242 4242 4242" })).status).toBe(200);
    const bought = JSON.parse((await evil("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId })).text).accessCode as string;
    const entered = (await app.ctx.access.issueAccessCode("SKP")).code;
    const entry = await evil("/api/validate-access", { accessCode: entered, username: "hostless", email: "enterer@example.com", deviceFingerprint: makeFingerprint() });
    expect(JSON.parse(entry.text).valid).toBe(true);
    const cookie = await adminSession(app.ctx);
    const sent = await evil("/api/admin/generate-access-code", { email: "gift@example.com" }, { cookie });
    expect(sent.status).toBe(201);
    const gifted = JSON.parse(sent.text).code as string;
    for (const code of [bought, entered, gifted]) {
      const mail = await smtp.waitFor((m) => m.text.includes(code));
      expect(mail.text).toContain(`${app.url}/access`);
      expect(mail.text + mail.html).not.toContain("evil.example");
    }
  });
});

describe("a Host header that makes no address", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
  });
  afterAll(() => app.close());

  test('is a 400 on every state-changing route, on the chat socket and on the stream, with nothing logged (Host: a"b)', async () => {
    const viewer = await viewerSession(app.ctx, "crooked");
    const admin = await adminSession(app.ctx);
    await app.ctx.settings.update({ isActive: true, embedUrl: "https://player.twitch.tv/?channel=dread" });
    const changing = app.routes.filter((r) => ["POST", "PUT", "PATCH", "DELETE"].includes(r.method));
    expect(changing.length).toBeGreaterThan(20);
    for (const r of changing) {
      for (const headers of [{}, { origin: app.url, cookie: `${viewer.cookie}; ${admin}` }] as Record<string, string>[]) {
        const answer = await rawRequest(app.url, r.method, r.path.replace(":id", "1"), 'a"b', "{}", headers);
        expect(`${r.method} ${r.path} ${answer.status}`).toBe(`${r.method} ${r.path} 400`);
      }
    }
    const upgrade = await rawRequest(app.url, "GET", "/ws", 'a"b', "", {
      origin: app.url,
      cookie: viewer.cookie,
      upgrade: "websocket",
      connection: "upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    });
    expect(upgrade.status).toBe(400);
    expect((await rawRequest(app.url, "GET", "/api/stream/playback", 'a"b', "", { cookie: viewer.cookie })).status).toBe(400);
    expect(app.loggedErrors).toEqual([]);
  }, 60_000);
});

describe("live payments without --public-url", () => {
  test("refuse to start, in one line naming the flag (exit 2), from flags or the environment", async () => {
    const keys = ["--stripe-secret-key", "sk_test_x", "--stripe-publishable-key", "pk_test_x"];
    for (const [args, env] of [
      [keys, {}],
      [[], { DREADCAST_STRIPE_SECRET_KEY: "sk_test_x", DREADCAST_STRIPE_PUBLISHABLE_KEY: "pk_test_x" }],
    ] as const) {
      const { stderr, stdout, code } = await runCli([...args, "--port", "0", "--data-dir", tempDir("live")], env);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toContain("--public-url");
    }
  }, 30_000);
});
