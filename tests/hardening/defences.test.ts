import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_SOCKETS_PER_IP } from "../../src/modules/chat/socket-limits.ts";
import { UPGRADES_PER_IP_PER_MINUTE } from "../../src/modules/chat/index.ts";
import { databasePath } from "../../src/db/database.ts";
import { loginAsAdmin, STAND_IN_PAGE, startTestApp, type TestApp } from "../support/app.ts";
import { buyDemoCode, enter, joinAs, makeFingerprint, viewerSession } from "../support/viewer.ts";
import { upgradeStatus, WsClient } from "../support/ws.ts";
import { freePort } from "../support/free-port.mjs";
import { BUN } from "../support/hardening.ts";
import { TEST_ENGINE } from "../support/postgres.ts";

/** The defences one by one: headers, cookies, body limits, connection limits, normalisation, degradation. */

const chunked = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    async start(controller) {
      const piece = new TextEncoder().encode("x".repeat(16 * 1024));
      controller.enqueue(new TextEncoder().encode('{"email":"a@b.co","pad":"'));
      for (let sent = 0; sent < bytes; sent += piece.length) {
        controller.enqueue(piece);
        await Bun.sleep(0);
      }
      controller.enqueue(new TextEncoder().encode('"}'));
      controller.close();
    },
  });

describe("headers and cookies", () => {
  let app: TestApp;
  let https: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
    https = await startTestApp({ publicUrl: "https://live.example.com", trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
    await app.ctx.settings.update({ ...(await app.ctx.settings.get()), embedUrl: "https://player.example.net/embed/42" });
  });
  afterAll(async () => {
    await app.close();
    await https.close();
  });

  test("every kind of response carries the security headers; HSTS only under an https public URL", async () => {
    const requests: [string, RequestInit][] = [
      ["/", {}],
      ["/livestream", {}],
      ["/assets/missing.js", {}],
      ["/uploads/nothing.png", {}],
      ["/healthz", {}],
      ["/api/payment-config", {}],
      ["/api/nope", {}],
      ["/api/admin/stats", {}],
      ["/api/lost-code", { method: "POST", headers: { "content-type": "application/json" }, body: "{bad" }],
      ["/api/lost-code", { method: "POST", headers: { origin: "https://evil.example" }, body: "{}" }],
      ["/api/lost-code", { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(70_000) }],
      ["/ws", { headers: { origin: "https://evil.example" } }],
    ];
    for (const [target, server] of [
      [app, false],
      [https, true],
    ] as const) {
      for (const [path, init] of requests) {
        const res = await fetch(target.url + path, init);
        const where = `${path} (${res.status})`;
        expect(`${where} ${res.headers.get("x-content-type-options")}`).toBe(`${where} nosniff`);
        expect(`${where} ${res.headers.get("referrer-policy")}`).toBe(`${where} strict-origin-when-cross-origin`);
        expect(`${where} ${res.headers.get("x-frame-options")}`).toBe(`${where} DENY`);
        // Pages and API answers carry a policy with frame-ancestors 'none'; files rely on X-Frame-Options.
        const framed = res.headers.get("content-security-policy")?.includes("frame-ancestors 'none'") ?? false;
        const file = path.startsWith("/assets/") || path.startsWith("/uploads/") || path === "/ws";
        expect(`${where} ${framed || file}`).toBe(`${where} true`);
        expect(`${where} ${res.headers.get("strict-transport-security")}`).toBe(`${where} ${server ? "max-age=31536000; includeSubDomains" : null}`);
      }
    }
  }, 30_000);

  test("pages allow only our scripts and Stripe's, and frame only Stripe and the embed origin", async () => {
    const csp = (await fetch(app.url + "/livestream")).headers.get("content-security-policy")!;
    const directive = (name: string) =>
      csp
        .split(";")
        .map((d) => d.trim())
        .find((d) => d.startsWith(name + " "));
    expect(directive("script-src")).toBe("script-src 'self' https://js.stripe.com");
    expect(directive("frame-src")).toBe("frame-src https://js.stripe.com https://hooks.stripe.com https://player.example.net");
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    // API answers: nothing may load, nothing is stored.
    const api = await fetch(app.url + "/api/payment-config");
    expect(api.headers.get("content-security-policy")).toStartWith("default-src 'none'");
    expect(api.headers.get("cache-control")).toBe("no-store");
  }, 30_000);

  test("session cookies are HttpOnly and SameSite=Lax, and Secure under https", async () => {
    for (const [target, secure] of [
      [app, false],
      [https, true],
    ] as const) {
      const code = (await target.ctx.access.issueAccessCode("SKP")).code;
      const res = await fetch(target.url + "/api/validate-access", {
        method: "POST",
        headers: { origin: target.url, "content-type": "application/json" },
        body: JSON.stringify({ accessCode: code, username: `cookie${secure}`, deviceFingerprint: makeFingerprint() }),
      });
      await target.ctx.admins.create(`admin${secure}`, "a@example.com", "s3cret-pass");
      const login = await fetch(target.url + "/api/admin/login", {
        method: "POST",
        headers: { origin: target.url, "content-type": "application/json" },
        body: JSON.stringify({ username: `admin${secure}`, password: "s3cret-pass" }),
      });
      for (const line of [...res.headers.getSetCookie(), ...login.headers.getSetCookie()]) {
        expect(line).toMatch(/HttpOnly/i);
        expect(line).toMatch(/SameSite=Lax/i);
        expect(/;\s*Secure/i.test(line)).toBe(secure);
      }
    }
  }, 30_000);
});

describe("body limits", () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof loginAsAdmin>>;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await loginAsAdmin(app);
  });
  afterAll(() => app.close());

  const post = (path: string, body: Bun.BodyInit, headers: Record<string, string> = {}) =>
    fetch(app.url + path, { method: "POST", headers: { origin: app.url, "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit);

  test("a declared body over the route's limit is refused 413 on every kind of route", async () => {
    for (const path of ["/api/lost-code", "/api/validate-access", "/api/admin/login", "/api/create-payment-intent", "/api/stripe/webhook"]) {
      const limit = path === "/api/stripe/webhook" ? 512 * 1024 : 64 * 1024;
      const res = await post(path, "x".repeat(limit + 1));
      expect(`${path} ${res.status}`).toBe(`${path} 413`);
      expect(((await res.json()) as { error: string }).error).toContain("too large");
    }
  }, 30_000);

  test("a chunked body without Content-Length is measured too: refused once over the limit, read in full under it", async () => {
    const over = await post("/api/lost-code", chunked(200 * 1024));
    expect(over.status).toBe(413);
    const huge = await post("/api/lost-code", chunked(20 * 1024 * 1024));
    expect(huge.status).toBe(413);
    const under = await post("/api/lost-code", chunked(32 * 1024));
    expect(under.status).toBe(200);
  }, 30_000);

  test("a chunked body to a route that reads it raw is held to that route's limit, not the server's", async () => {
    // The webhook takes 512 KiB; the server-wide cap is the upload's 6 MiB.
    const over = await post("/api/stripe/webhook", chunked(1024 * 1024));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: string }).error).toBe("Request body too large (limit 512 KiB)");
    // Under it the body is read in full, and this server (no Stripe keys) then answers that it takes no webhooks.
    const under = await post("/api/stripe/webhook", chunked(16 * 1024));
    expect(under.status).toBe(404);
    expect(((await under.json()) as { error: string }).error).toBe("Webhooks are not configured");
  }, 30_000);

  test("uploads: over 5 MB, not an image, an empty or a truncated form are refused with a message", async () => {
    const upload = (form: FormData | string, contentType?: string) =>
      admin.request("POST", "/api/admin/upload-thumbnail", form, contentType ? { "content-type": contentType } : {});
    const big = new FormData();
    big.set("thumbnail", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), new Uint8Array(5 * 1024 * 1024)]), "big.png");
    expect((await upload(big)).body.error).toBe("The image must be 5 MB or smaller");
    const html = new FormData();
    html.set("thumbnail", new Blob(["<html><script>alert(1)</script>"], { type: "image/png" }), "x.png");
    expect((await upload(html)).body.error).toBe("Please upload an image file (JPEG, PNG, GIF, etc.).");
    const truncated = await upload('--b\r\nContent-Disposition: form-data; name="thumbnail"; filename="a.png"\r\n\r\n\x89PNG', "multipart/form-data; boundary=b");
    expect(truncated.status).toBe(400);
    const tooBig = await fetch(app.url + "/api/admin/upload-thumbnail", {
      method: "POST",
      headers: { origin: app.url, cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": "multipart/form-data; boundary=b" },
      body: "x".repeat(7 * 1024 * 1024),
    });
    expect(tooBig.status).toBe(413);
  }, 30_000);
});

describe("WebSocket limits per address", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: ["127.0.0.1"] });
  });
  afterAll(() => app.close());

  test(`one address may hold ${MAX_SOCKETS_PER_IP} sockets; the next is refused 429, another address is not`, async () => {
    const sockets: WsClient[] = [];
    const people = await Promise.all(Array.from({ length: Math.ceil(MAX_SOCKETS_PER_IP / 5) }, async (_, i) => (await viewerSession(app.ctx, `crowd${i}`, "SKP")).cookie));
    for (let i = 0; i < MAX_SOCKETS_PER_IP; i++) {
      const [name, value] = (await people[Math.floor(i / 5)])!.split("=");
      const client = app.client();
      client.cookies.set(name!, value!);
      sockets.push(await WsClient.connect(app, client, { "x-forwarded-for": "198.51.100.7" }));
    }
    const extra = (await viewerSession(app.ctx, "one-too-many", "SKP")).cookie;
    expect(await upgradeStatus(app, { origin: app.origin, cookie: extra, "x-forwarded-for": "198.51.100.7" })).toBe(429);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: extra, "x-forwarded-for": "198.51.100.8" })).toBe(101);
    // Without the trusted proxy in front, X-Forwarded-For is not believed.
    sockets[0]!.close();
    await Bun.sleep(100);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: extra, "x-forwarded-for": "198.51.100.7" })).toBe(101);
    for (const s of sockets) s.close();
  }, 30_000);

  test(`more than ${UPGRADES_PER_IP_PER_MINUTE} upgrade attempts a minute from one address are refused 429`, async () => {
    const cookie = (await viewerSession(app.ctx, "reconnector", "SKP")).cookie;
    const statuses: number[] = [];
    for (let i = 0; i <= UPGRADES_PER_IP_PER_MINUTE; i++) statuses.push(await upgradeStatus(app, { origin: app.origin, cookie, "x-forwarded-for": "203.0.113.9" }));
    expect(statuses.slice(0, UPGRADES_PER_IP_PER_MINUTE).every((s) => s === 101)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await upgradeStatus(app, { origin: app.origin, cookie, "x-forwarded-for": "203.0.113.10" })).toBe(101);
  }, 30_000);

  test("X-Forwarded-For from a peer that is not a trusted proxy is ignored by every limit", async () => {
    const direct = await startTestApp();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const res = await direct.client().post("/api/create-payment-intent", { product: "livestream-access" }, { "x-forwarded-for": `192.0.2.${i}` });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await direct.close();
    }
  }, 30_000);
});

describe("rate limits answer 429 with a clear message", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: ["127.0.0.1"] });
  });
  afterAll(() => app.close());

  test("payment intents per address", async () => {
    const from = { "x-forwarded-for": "198.51.100.50" };
    let last = await app.client().post("/api/create-payment-intent", { product: "livestream-access" }, from);
    for (let i = 0; i < 30; i++) last = await app.client().post("/api/create-payment-intent", { product: "livestream-access" }, from);
    expect(last.status).toBe(429);
    expect(last.body.error).toBe("Too many payment attempts. Please try again later.");
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 30_000);

  test("admin login: per address and username, with a delay that grows", async () => {
    await app.ctx.admins.create("gatekeeper", "g@example.com", "s3cret-pass");
    const from = { "x-forwarded-for": "198.51.100.60" };
    const attempt = () => app.client().post("/api/admin/login", { username: "gatekeeper", password: "wrong-pass" }, from);
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    const first = await attempt();
    expect(first.status).toBe(429);
    expect(first.body.error).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/);
    await Bun.sleep(Number(first.headers.get("retry-after")) * 1000 + 50);
    expect((await attempt()).status).toBe(401);
    const second = await attempt();
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(Number(first.headers.get("retry-after")));
  }, 30_000);

  test("chat and hearts per person, over all their sockets", async () => {
    const viewer = await joinAs(app, "chatterbox", "SCP");
    const a = await WsClient.connect(app, viewer);
    const b = await WsClient.connect(app, viewer);
    for (let i = 0; i < 6; i++) (i % 2 ? a : b).send({ type: "chat_message", text: `spam ${i}` });
    const notice = await Promise.race([a.next("system_message"), b.next("system_message")]);
    expect(notice.message).toMatch(/^You are sending messages too fast\. Please wait \d+ seconds?\.$/);
    a.close();
    b.close();
  }, 30_000);
});

describe("normalised names and text", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test("control characters and invisible-only names are refused; two spellings of one name are one name", async () => {
    for (const name of ["ab\u0000c", "\u200b\u200b\u200b", "\u2800\u2800\u2800", "a\u202eb", "\u3164\u3164\u3164", "ａｄｍｉｎ", "   "]) {
      const res = await enter(app.client(), (await app.ctx.access.issueAccessCode("SKP")).code, name, makeFingerprint());
      expect(`${JSON.stringify(name)} ${res.status}`).toBe(`${JSON.stringify(name)} 400`);
    }
    expect((await enter(app.client(), (await app.ctx.access.issueAccessCode("SKP")).code, "Zoe\u0301", makeFingerprint())).body.valid).toBe(true);
    const twin = await enter(app.client(), (await app.ctx.access.issueAccessCode("SKP")).code, "Zo\u00e9", makeFingerprint());
    expect(twin.body.message).toBe("That username is already taken. Please choose another.");
  }, 30_000);

  test("chat text: invisible-only refused, controls stripped, towers of accents cut down", async () => {
    const viewer = await joinAs(app, "scribe", "SCP");
    const ws = await WsClient.connect(app, viewer);
    expect(await ws.expectError({ type: "chat_message", text: "\u200b\u200b\u200d" })).toBe("Message cannot be empty");
    ws.send({ type: "chat_message", text: "a" + "\u0301".repeat(150) + "\u0000b\u2028c" });
    const line = await ws.next("chat", (e) => e.message.username === "scribe");
    expect(line.message.text).toBe("\u00e1\u0301\u0301\u0301b c");
    ws.close();
  }, 30_000);
});

describe("graceful degradation", () => {
  test("Stripe unreachable: a clear 502 and nothing half-written", async () => {
    const app = await startTestApp({
      stripeSecretKey: "sk_test_x",
      stripePublishableKey: "pk_test_x",
      stripeWebhookSecret: "whsec_x",
      stripeApiUrl: `http://127.0.0.1:${await freePort()}`,
    });
    try {
      const res = await app.client().post("/api/create-payment-intent", { product: "livestream-access", email: "a@example.com" });
      expect(res.status).toBe(502);
      expect(res.body.error).toBe("The payment provider could not be reached. Please try again.");
      const code = await app.client().post("/api/generate-access-code", { paymentIntentId: "pi_123456" });
      expect(code.status).toBe(502);
      expect(
        (await app.ctx.store.get<{ n: number }>("SELECT (SELECT COUNT(*) FROM payments) + (SELECT COUNT(*) FROM access_codes) + (SELECT COUNT(*) FROM email_queue) AS n"))!.n,
      ).toBe(0);
    } finally {
      await app.close();
    }
  }, 30_000);

  test("SMTP unreachable: the purchase completes and its e-mail waits in the queue", async () => {
    const app = await startTestApp({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    try {
      const { accessCode } = await buyDemoCode(app.client(), "waiting@example.com");
      expect(accessCode).toStartWith("SKP-");
      const row = await (async () => {
        for (let i = 0; i < 100; i++) {
          const r = await app.ctx.store.get<{ status: string; attempts: number; last_error: string | null }>("SELECT status, attempts, last_error FROM email_queue");
          if (r && r.attempts > 0) return r;
          await Bun.sleep(50);
        }
        return null;
      })();
      expect(row?.status).toBe("pending");
      expect(row?.last_error).toBeTruthy();
    } finally {
      await app.close();
    }
  }, 30_000);

  test.skipIf(TEST_ENGINE === "postgres")(
    "the database busy with another writer: requests wait for it instead of failing",
    async () => {
      const app = await startTestApp();
      try {
        // Another process holds the write lock for 1.5 s.
        const holder = Bun.spawn(
          [
            BUN,
            "-e",
            `
        import { Database } from "bun:sqlite";
        const db = new Database(${JSON.stringify(databasePath(app.config.dataDir))});
        db.run("PRAGMA busy_timeout = 5000");
        db.run("BEGIN IMMEDIATE");
        db.run("INSERT INTO event_counters (name, value) VALUES ('lock-holder', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1");
        console.log("locked at " + Date.now());
        await Bun.sleep(1500);
        db.run("COMMIT");
      `,
          ],
          { stdout: "pipe" },
        );
        // Waits for its word that it holds the lock (a read may return before the line is all there).
        const reader = holder.stdout.getReader();
        let said = "";
        while (!/locked at \d+\n/.test(said)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the lock holder stopped before taking the lock: ${said}`);
          said += new TextDecoder().decode(value);
        }
        // Timed from the moment the lock was taken: the wait may fall on the request itself or, as this
        // process is the server too, on a background write the server started just before it.
        const lockedAt = Number(/locked at (\d+)/.exec(said)![1]);
        const res = await app.client().get("/api/test/generate-access-code");
        expect(res.status).toBe(200);
        expect(res.body.accessCode).toStartWith("SCP-");
        expect(Date.now() - lockedAt).toBeGreaterThan(1000);
        expect(await holder.exited).toBe(0);
      } finally {
        await app.close();
      }
    },
    30_000,
  );
});
