import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loginAsAdmin, sessionAdminRoutes, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";

// Started as the file loads: the tests of every admin route are made from its route table.
const app: TestApp = await startTestApp();
let admin: TestClient;
beforeAll(async () => {
  admin = await loginAsAdmin(app);
});
afterAll(() => app.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde]);

const validSettings = {
  eventTitle: "The Hollow House",
  thumbnailUrl: "/assets/default-thumbnail.jpg",
  embedUrl: "https://player.example.com/embed/abc",
  donationGoal: 12345,
  isActive: true,
  startDate: "2030-10-31T20:00:00.000Z",
};

describe("every admin route needs an admin session", () => {
  // The app's own route table, so that a route added later is checked too.
  const routes = sessionAdminRoutes(app).map(({ method, path }) => ({ method, path, url: path.replace(/:\w+/g, "1") }));
  test("the route table lists the admin API", () => {
    expect(routes.length).toBeGreaterThan(15);
  });
  for (const { method, path, url } of routes) {
    test(`${method} ${path} → 401 without a session`, async () => {
      const res = await app.client().request(method, url);
      expect(res.status).toBe(401);
      expect(res.body.error).toBeString();
    });
  }
  for (const { method, path, url } of routes.filter((r) => r.method !== "GET")) {
    test(`${method} ${path} → 403 cross-site even with a session`, async () => {
      const res = await admin.request(method, url, {}, { origin: "https://evil.example" });
      expect(res.status).toBe(403);
    });
  }
});

describe("settings", () => {
  const bad: [string, Record<string, unknown>, string][] = [
    ["an empty title", { eventTitle: "  " }, "Event title is required"],
    ["an empty thumbnail path", { thumbnailUrl: "" }, "Thumbnail path is required"],
    ["an embed URL that is not a URL", { embedUrl: "not a url" }, "Please enter a valid embed URL"],
    ["a javascript: embed URL", { embedUrl: "javascript:alert(1)" }, "Please enter a valid embed URL"],
    ["a goal under £1", { donationGoal: 99 }, "Donation goal must be at least 1"],
    ["a start date that is not a date", { startDate: "soon" }, "Start date must be an ISO date"],
  ];
  for (const [name, change, message] of bad) {
    test(`PUT refuses ${name}`, async () => {
      const res = await admin.put("/api/admin/livestream-settings", { ...validSettings, ...change });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });
  }

  test("PUT saves, GET reads back, and the public settings reflect it", async () => {
    const put = await admin.put("/api/admin/livestream-settings", validSettings);
    expect(put.status).toBe(200);
    const got = await admin.get("/api/admin/livestream-settings");
    expect(got.body).toMatchObject(validSettings);
    const pub = await app.client().get("/api/livestream-settings");
    expect(pub.body.eventTitle).toBe(validSettings.eventTitle);
    expect(pub.body.donationGoal).toBe(12345);
    expect(pub.body.startDate).toBe(validSettings.startDate);
    expect(pub.body.embedUrl).toBe("");
  });
});

describe("fake viewers", () => {
  const bad: [string, unknown][] = [
    ["a target over 5000", { enabled: true, targetViewers: 5001 }],
    ["a negative target", { enabled: true, targetViewers: -1 }],
    ["a non-number target", { enabled: true, targetViewers: "lots" }],
    ["a fractional target", { enabled: true, targetViewers: 1.5 }],
    ["enabled without a target", { enabled: true }],
  ];
  for (const [name, body] of bad) {
    test(`refuses ${name}`, async () => {
      const res = await admin.post("/api/admin/fake-viewers", body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Please enter a valid number of viewers");
    });
  }

  test("enabling sets the target; stats show it; disabling keeps the target", async () => {
    const on = await admin.post("/api/admin/fake-viewers", { enabled: true, targetViewers: 250 });
    expect(on.status).toBe(200);
    expect(on.body.fakeViewerMode).toBe(true);
    expect(on.body.fakeViewersTarget).toBe(250);
    const off = await admin.post("/api/admin/fake-viewers", { enabled: false });
    expect(off.body.fakeViewerMode).toBe(false);
    expect(off.body.fakeViewersTarget).toBe(250);
  });
});

describe("access codes", () => {
  test("generate makes a regular code by default and a moderator code on request", async () => {
    const regular = await admin.post("/api/admin/generate-access-code", {});
    expect(regular.status).toBe(201);
    expect(regular.body.code).toMatch(/^SKP-[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(regular.body).toMatchObject({ kind: "SKP", used: false, revoked: false, deviceBound: false, email: null });
    const mod = await admin.post("/api/admin/generate-access-code", { kind: "MOD", email: "mod@example.com" });
    expect(mod.body.code).toStartWith("MOD-");
    expect(mod.body.email).toBe("mod@example.com");
  });

  test("generate refuses a bad e-mail and an unknown kind", async () => {
    expect((await admin.post("/api/admin/generate-access-code", { email: "nope" })).body.error).toBe("Please enter a valid email address");
    expect((await admin.post("/api/admin/generate-access-code", { kind: "SCP" })).status).toBe(400);
  });

  test("the list holds every code, newest first, and the CSV matches it", async () => {
    const list = (await admin.get("/api/admin/access-codes")).body as { code: string; kind: string }[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list[0]!.kind).toBe("MOD");
    const csv = await admin.get("/api/admin/access-codes.csv");
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toContain("attachment");
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toBe("code,kind,used,revoked,device_bound,email,username,created_at");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(list.map((c) => c.code));
  });

  test("send needs an address, queues the mail and remembers the address", async () => {
    const code = (await admin.post("/api/admin/generate-access-code", {})).body;
    const none = await admin.post(`/api/admin/access-codes/${code.id}/send`, {});
    expect(none.status).toBe(400);
    const sent = await admin.post(`/api/admin/access-codes/${code.id}/send`, { email: "buyer@example.com" });
    expect(sent.status).toBe(200);
    const queued = (await app.ctx.store.get("SELECT COUNT(*) AS n FROM email_queue WHERE to_address = ? AND text_body LIKE ?", "buyer@example.com", `%${code.code}%`)) as {
      n: number;
    };
    expect(queued.n).toBe(1);
    const listed = ((await admin.get("/api/admin/access-codes")).body as { id: number; email: string }[]).find((c) => c.id === code.id)!;
    expect(listed.email).toBe("buyer@example.com");
  });

  test("revoke and reset-device change the record; unknown ids are 404", async () => {
    const code = (await admin.post("/api/admin/generate-access-code", {})).body;
    await app.ctx.store.run("UPDATE access_codes SET device_fingerprint = '{}' WHERE id = ?", code.id);
    const reset = await admin.post(`/api/admin/access-codes/${code.id}/reset-device`);
    expect(reset.body.deviceBound).toBe(false);
    const revoked = await admin.post(`/api/admin/access-codes/${code.id}/revoke`);
    expect(revoked.body.revoked).toBe(true);
    expect((await admin.post("/api/admin/access-codes/999999/revoke")).status).toBe(404);
    expect((await admin.post("/api/admin/access-codes/abc/revoke")).status).toBe(400);
  });

  test("a code revoked by mistake is restored: it works again, a second restore changes nothing, unknown ids are 404", async () => {
    const code = (await admin.post("/api/admin/generate-access-code", {})).body;
    expect((await admin.post(`/api/admin/access-codes/${code.id}/revoke`)).body.revoked).toBe(true);
    expect((await enter(app.client(), code.code, "Mistaken")).body.valid).toBe(false);
    const restored = await admin.post(`/api/admin/access-codes/${code.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: code.id, code: code.code, revoked: false });
    expect((await enter(app.client(), code.code, "Mistaken")).body.valid).toBe(true);
    const again = await admin.post(`/api/admin/access-codes/${code.id}/restore`);
    expect(again.status).toBe(200);
    expect(again.body.revoked).toBe(false);
    expect((await admin.post("/api/admin/access-codes/999999/restore")).status).toBe(404);
    expect((await admin.post("/api/admin/access-codes/abc/restore")).status).toBe(400);
    expect((await app.client().post(`/api/admin/access-codes/${code.id}/restore`)).status).toBe(401);
  });
});

describe("users and bans", () => {
  test("users list and CSV agree", async () => {
    const codeId = ((await app.ctx.store.get("SELECT id FROM access_codes LIMIT 1")) as { id: number }).id;
    await app.ctx.store.run("INSERT INTO users (username, email, access_code_id, created_at) VALUES (?, ?, ?, ?)", "Nightcrawler", "nc@example.com", codeId, Date.now());
    await app.ctx.store.run("INSERT INTO users (username, email, access_code_id, created_at) VALUES (?, ?, ?, ?)", "=cmd|calc", null, null, Date.now() + 1);
    const users = (await admin.get("/api/admin/users")).body as { username: string; email: string | null }[];
    expect(users.map((u) => u.username)).toContain("Nightcrawler");
    const csv = (await admin.get("/api/admin/users.csv")).text.trim().split("\r\n");
    expect(csv[0]).toBe("username,email,access_code,banned,moderator,created_at");
    expect(csv).toHaveLength(users.length + 1);
    expect(csv.some((l) => l.startsWith(`"'=cmd|calc"`))).toBe(true);
  });

  test("the users list says whose pass no longer lets them in: refunded in full, or revoked in the panel", async () => {
    const buyer = app.client();
    const bought = await buyDemoCode(buyer, "refunded@example.com");
    expect((await enter(buyer, bought.accessCode, "RefundedGhoul")).body.valid).toBe(true);
    const kept = app.client();
    const keptPass = await buyDemoCode(kept, "kept@example.com");
    expect((await enter(kept, keptPass.accessCode, "StillWatching")).body.valid).toBe(true);
    const panelCode = (await admin.post("/api/admin/generate-access-code", {})).body as { id: number; code: string };
    expect((await enter(app.client(), panelCode.code, "RevokedByHand")).body.valid).toBe(true);

    const refund = await admin.post("/api/admin/payments/refund", { paymentIntentId: bought.paymentIntentId, expectedRefunded: 0 });
    expect(refund.status).toBe(200);
    expect((await admin.post(`/api/admin/access-codes/${panelCode.id}/revoke`)).status).toBe(200);

    const users = (await admin.get("/api/admin/users")).body as { username: string; revoked: boolean; hold: string | null; banned: boolean }[];
    const statusOf = (name: string) => {
      const u = users.find((x) => x.username === name)!;
      return { revoked: u.revoked, hold: u.hold, banned: u.banned };
    };
    expect(statusOf("RefundedGhoul")).toEqual({ revoked: true, hold: "refunded", banned: false });
    expect(statusOf("RevokedByHand")).toEqual({ revoked: true, hold: null, banned: false });
    expect(statusOf("StillWatching")).toEqual({ revoked: false, hold: null, banned: false });
  });

  test("the users list marks who is banned: by name in any case, or by the code they hold; no one else", async () => {
    const now = Date.now();
    const codes = [] as number[];
    for (const _ of [1, 2]) codes.push((await admin.post("/api/admin/generate-access-code", {})).body.id as number);
    await app.ctx.store.run("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?)", "ByName", codes[0]!, now);
    await app.ctx.store.run("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?)", "ByCode", codes[1]!, now);
    await app.ctx.store.run("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?)", "Innocent", null, now);
    await app.ctx.store.run("INSERT INTO banned_users (username, banned_by, created_at) VALUES (?, ?, ?)", "BYNAME", "warden", now);
    await app.ctx.store.run("INSERT INTO banned_users (username, access_code_id, banned_by, created_at) VALUES (?, ?, ?, ?)", "an old name", codes[1]!, "warden", now);
    const users = (await admin.get("/api/admin/users")).body as { username: string; banned: boolean }[];
    const banned = (name: string) => users.find((u) => u.username === name)?.banned;
    expect([banned("ByName"), banned("ByCode"), banned("Innocent")]).toEqual([true, true, false]);
    await app.ctx.store.run("DELETE FROM banned_users WHERE username IN ('BYNAME', 'an old name')");
  });

  test("banned users are listed and can be unbanned once", async () => {
    await app.ctx.store.run("INSERT INTO banned_users (username, banned_by, created_at) VALUES (?, ?, ?)", "Nightcrawler", "warden", Date.now());
    const list = await admin.get("/api/admin/banned-users");
    expect(list.body.bannedUsers.map((b: { username: string }) => b.username)).toEqual(["Nightcrawler"]);
    expect((await admin.post("/api/admin/unban-user", { username: "Nightcrawler" })).status).toBe(200);
    expect((await admin.get("/api/admin/banned-users")).body.bannedUsers).toEqual([]);
    expect((await admin.post("/api/admin/unban-user", { username: "Nightcrawler" })).status).toBe(404);
    expect((await admin.post("/api/admin/unban-user", {})).status).toBe(400);
  });
});

describe("one e-mail address per pass, the same on every screen", () => {
  type Listed = { email: string | null };
  const userOf = async (username: string) => ((await admin.get("/api/admin/users")).body as (Listed & { username: string })[]).find((u) => u.username === username)!;
  const usersCsvLine = async (username: string) => (await admin.get("/api/admin/users.csv")).text.split("\r\n").find((l) => l.startsWith(`${username},`))!;
  const codeOf = async (code: string) => ((await admin.get("/api/admin/access-codes")).body as (Listed & { code: string })[]).find((c) => c.code === code)!;
  const paymentOf = async (intent: string) =>
    ((await admin.get("/api/admin/payments")).body as (Listed & { paymentIntentId: string })[]).find((p) => p.paymentIntentId === intent)!;
  const everywhere = async (username: string, code: string, intent: string) => ({
    users: (await userOf(username)).email,
    csv: (await usersCsvLine(username)).split(",")[1] || null,
    codes: (await codeOf(code)).email,
    payments: (await paymentOf(intent)).email,
  });

  test("bought with an address, entered without one: Users and its CSV show the buyer's address as Access Codes and Payments do", async () => {
    const { accessCode, paymentIntentId } = await buyDemoCode(app.client(), "buyer.one@example.com");
    expect((await enter(app.client(), accessCode, "QuietBuyer")).body.valid).toBe(true);
    const email = "buyer.one@example.com";
    expect(await everywhere("QuietBuyer", accessCode, paymentIntentId)).toEqual({ users: email, csv: email, codes: email, payments: email });
  });

  test("bought without an address, given one on entering: Payments shows it as the code does", async () => {
    const { accessCode, paymentIntentId } = await buyDemoCode(app.client());
    expect((await enter(app.client(), accessCode, "LateGiver", undefined, "late.giver@example.com")).body.valid).toBe(true);
    const email = "late.giver@example.com";
    expect(await everywhere("LateGiver", accessCode, paymentIntentId)).toEqual({ users: email, csv: email, codes: email, payments: email });
  });

  test("the code's address, where an admin sent it, wins over the receipt's; a code without one shows the receipt's", async () => {
    const { accessCode, paymentIntentId } = await buyDemoCode(app.client(), "typo@exmaple.com");
    expect((await enter(app.client(), accessCode, "Corrected")).body.valid).toBe(true);
    const id = (await admin.get("/api/admin/access-codes")).body.find((c: { code: string }) => c.code === accessCode).id;
    expect((await admin.post(`/api/admin/access-codes/${id}/send`, { email: "fixed@example.com" })).status).toBe(200);
    expect(await everywhere("Corrected", accessCode, paymentIntentId)).toEqual({
      users: "fixed@example.com",
      csv: "fixed@example.com",
      codes: "fixed@example.com",
      payments: "fixed@example.com",
    });
    // A code whose own address was never kept (older data): the payment's receipt address, on every screen.
    await app.ctx.store.run("UPDATE access_codes SET email = NULL WHERE id = ?", id);
    expect(await everywhere("Corrected", accessCode, paymentIntentId)).toEqual({
      users: "typo@exmaple.com",
      csv: "typo@exmaple.com",
      codes: "typo@exmaple.com",
      payments: "typo@exmaple.com",
    });
  });

  test("a donation shows its donor's address as the Users list does", async () => {
    const viewer = app.client();
    const { accessCode } = await buyDemoCode(viewer, "patron@example.com");
    expect((await enter(viewer, accessCode, "Patroness")).body.valid).toBe(true);
    const intent = (await viewer.post("/api/create-donation-intent", { amount: 700 })).body;
    expect((await viewer.post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242424242424242" })).status).toBe(200);
    expect((await paymentOf(intent.paymentIntentId)).email).toBe("patron@example.com");
    expect((await userOf("Patroness")).email).toBe("patron@example.com");
  });
});

describe("a ban from the Users screen", () => {
  test("bans someone who never chatted, by name and code: their stream and chat are refused, Banned Users lists it with the reason, and it is logged", async () => {
    const viewer = app.client();
    const code = (await admin.post("/api/admin/generate-access-code", {})).body;
    expect((await enter(viewer, code.code, "SilentLurker")).body.valid).toBe(true);
    expect((await viewer.get("/api/user-data")).status).toBe(200);
    const user = ((await admin.get("/api/admin/users")).body as { id: number; username: string; banned: boolean }[]).find((u) => u.username === "SilentLurker")!;
    expect(user.banned).toBe(false);

    const res = await admin.post(`/api/admin/users/${user.id}/ban`, { reason: "  Sharing the stream link  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, id: user.id, username: "SilentLurker" });
    expect(((await admin.get("/api/admin/users")).body as { id: number; banned: boolean }[]).find((u) => u.id === user.id)!.banned).toBe(true);
    expect((await admin.get("/api/admin/banned-users")).body.bannedUsers).toContainEqual({
      username: "SilentLurker",
      bannedBy: "warden",
      reason: "Sharing the stream link",
      bannedAt: expect.any(String),
    });
    // Their session is over, and the code is refused under any name.
    expect((await viewer.get("/api/stream/playback")).status).toBeOneOf([401, 403]);
    expect((await enter(app.client(), code.code, "NewName")).body.valid).toBe(false);
    const log = (await admin.get("/api/admin/moderation-log?action=ban")).body.entries as { moderator: string; target: string; detail: string | null }[];
    expect(log[0]).toMatchObject({ moderator: "warden", target: "SilentLurker", detail: "Sharing the stream link" });

    const again = await admin.post(`/api/admin/users/${user.id}/ban`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("'SilentLurker' is already banned");
    expect((await admin.post("/api/admin/unban-user", { username: "SilentLurker" })).status).toBe(200);
  });

  test("unknown users are 404, bad ids and reasons 400", async () => {
    expect((await admin.post("/api/admin/users/999999/ban", {})).status).toBe(404);
    expect((await admin.post("/api/admin/users/abc/ban", {})).status).toBe(400);
    const id = ((await admin.get("/api/admin/users")).body as { id: number }[])[0]!.id;
    const long = await admin.post(`/api/admin/users/${id}/ban`, { reason: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("The reason must be 200 characters or less");
    expect((await admin.post(`/api/admin/users/${id}/ban`, { reason: 5 })).status).toBe(400);
  });
});

describe("thumbnail upload", () => {
  const upload = (file: Blob, name: string) => {
    const form = new FormData();
    form.append("thumbnail", file, name);
    return admin.post("/api/admin/upload-thumbnail", form);
  };

  test("a real PNG is stored under a content-derived name and served with a long cache", async () => {
    const res = await upload(new Blob([PNG], { type: "image/png" }), "anything.txt");
    expect(res.status).toBe(200);
    expect(res.body.thumbnailUrl).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const again = await upload(new Blob([PNG], { type: "image/png" }), "other.png");
    expect(again.body.thumbnailUrl).toBe(res.body.thumbnailUrl);
    const served = await fetch(app.url + res.body.thumbnailUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("immutable");
  });

  test("an uploaded image lives in the database: another server on it serves the image, with no file written", async () => {
    const res = await upload(new Blob([PNG], { type: "image/png" }), "shared.png");
    expect(res.status).toBe(200);
    expect(existsSync(join(app.config.dataDir, "uploads"))).toBe(false);
    // On PostgreSQL a server with a data directory of its own; on SQLite a second server on the same file.
    const other = await startTestApp(app.config.databaseUrl ? { databaseUrl: app.config.databaseUrl } : { dataDir: app.config.dataDir });
    try {
      const served = await fetch(other.url + res.body.thumbnailUrl);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(PNG));
    } finally {
      await other.close();
    }
  });

  test("a renamed non-image is refused by its bytes", async () => {
    const res = await upload(new Blob(["<?php echo 'boo'; ?>"], { type: "image/jpeg" }), "evil.jpg");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Please upload an image file (JPEG, PNG, GIF, etc.).");
  });

  test("a body that is not multipart, or has no file, is a 400", async () => {
    expect((await admin.post("/api/admin/upload-thumbnail", { thumbnail: "x" })).status).toBe(400);
    const form = new FormData();
    form.append("other", "x");
    expect((await admin.post("/api/admin/upload-thumbnail", form)).status).toBe(400);
  });

  test("an unknown or malformed upload name is a 404", async () => {
    expect((await fetch(`${app.url}/uploads/${"0".repeat(32)}.png`)).status).toBe(404);
    expect((await fetch(`${app.url}/uploads/..%2Fdreadcast.db`)).status).toBe(404);
  });
});

test("stats report counts, goal and modes; the history has samples", async () => {
  const stats = (await admin.get("/api/admin/stats")).body;
  expect(stats).toMatchObject({ paymentMode: "demo", mailMode: "outbox", donationGoal: 12345 });
  for (const key of ["userCount", "accessCodeCount", "donationTotal", "viewerCount", "currentDonation", "fakeViewersTarget", "currentFakeViewers"]) {
    expect(typeof stats[key]).toBe("number");
  }
  const history = (await admin.get("/api/admin/stats/history")).body;
  expect(history.samples.length).toBeGreaterThanOrEqual(1);
});
