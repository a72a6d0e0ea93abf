import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sha256Hex } from "../../src/lib/tokens.ts";
import { nameSkeleton } from "../../src/modules/access/name-skeleton.ts";
import type { Role } from "../../src/contracts/team.ts";
import { memberOf, ownAddress, signedIn, startTestApp, type TestApp } from "../support/app.ts";
import { totp } from "../support/totp.ts";
import { buyDemoCode } from "../support/viewer.ts";
import { upgradeStatus, WsClient } from "../support/ws.ts";

// What the panel guards: where the video comes from, the stream key, two factors for all, the sessions'
// ids, the team's names, and the audit log of it all. Each through real HTTP against the real app.

// Every sign-in hashes a password (argon2id): a test with several takes seconds on a busy machine.
setDefaultTimeout(30_000);

let app: TestApp;
beforeAll(async () => {
  // Each sign-in from an address of its own (the app trusts the local proxy).
  app = await startTestApp({ trustProxy: ["127.0.0.1"] });
  await app.ctx.admins.create("owner", "owner@example.com", "owner-pass", "owner");
});
afterAll(() => app.close());

const signIn = (username: string, password = "member-pass") => signedIn(app, username, password);
const member = (username: string, role: Role) => memberOf(app, username, role);

/** Makes every session of `username` older than the step-up window. */
async function staleProof(username: string): Promise<void> {
  const admin = (await app.ctx.admins.findByUsername(username))!;
  await app.ctx.store.run("UPDATE admin_sessions SET verified_at = ? WHERE admin_id = ?", Date.now() - 11 * 60_000, admin.id);
}

async function auditEntries(action: string): Promise<{ actor: string; action: string; target: string | null; before: any; after: any }[]> {
  const owner = await signIn("owner", "owner-pass");
  return (await owner.get(`/api/admin/audit-log?action=${encodeURIComponent(action)}`)).body.entries;
}

describe("where the video comes from", () => {
  test("a stale session cannot move the player through the event settings; a fresh proof can, logged as a stream-source change", async () => {
    const operator = await member("stage-hand", "operator");
    // A fresh session saves the settings with an embed address, as the spec's call does.
    const fresh = await operator.put("/api/admin/livestream-settings", { eventTitle: "The Night Shift", embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" });
    expect(fresh.status).toBe(200);
    expect(fresh.body.embedUrl).toBe("https://www.youtube.com/embed/dQw4w9WgXcQ");

    await staleProof("stage-hand");
    expect((await operator.put("/api/admin/stream-source", { kind: "embed", embedUrl: "https://www.youtube.com/embed/M7lc1UVf-VE" })).body.reauth).toBe(true);
    const moved = await operator.put("/api/admin/livestream-settings", { embedUrl: "https://www.youtube.com/embed/M7lc1UVf-VE" });
    expect(moved.status).toBe(403);
    expect(moved.body).toEqual({ reauth: true, error: "Confirm it's you to continue" });
    // A page link that becomes the player already saved changes nothing, and the rest needs no proof.
    const same = await operator.put("/api/admin/livestream-settings", { eventTitle: "The Late Shift", embedUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" });
    expect(same.status).toBe(200);
    expect((await app.client().get("/api/admin/livestream-settings", {})).status).toBe(401);
    expect((await app.ctx.settings.get()).embedUrl).toBe("https://www.youtube.com/embed/dQw4w9WgXcQ");
    // A bad address is still a clear 400 on its field.
    const bad = await operator.put("/api/admin/livestream-settings", { embedUrl: "not a link" });
    expect(bad.status).toBe(400);

    expect((await operator.post("/api/admin/reauth", { password: "member-pass" })).status).toBe(200);
    const proved = await operator.put("/api/admin/livestream-settings", { embedUrl: "https://www.youtube.com/embed/M7lc1UVf-VE" });
    expect(proved.status).toBe(200);
    expect((await app.ctx.settings.get()).embedUrl).toBe("https://www.youtube.com/embed/M7lc1UVf-VE");

    const changes = await auditEntries("stream-source.update");
    expect(changes[0]).toMatchObject({
      actor: "stage-hand",
      target: "embed",
      before: { embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" },
      after: { embedUrl: "https://www.youtube.com/embed/M7lc1UVf-VE" },
    });
    for (const entry of await auditEntries("settings.update")) expect(JSON.stringify(entry.after ?? {})).not.toContain("M7lc1UVf-VE");
  });
});

describe("the stream key", () => {
  test("the ingest view has no key; revealing it needs a fresh proof and is logged, the live figures need neither", async () => {
    const operator = await member("key-keeper", "operator");
    await staleProof("key-keeper");
    const view = await operator.get("/api/admin/ingest");
    expect(view.status).toBe(200);
    expect(view.body.rtmpUrl).toStartWith("rtmp://");
    expect(view.body.live).toBe(false);
    expect(view.body).not.toHaveProperty("streamKey");
    const key = (await app.ctx.ingest.keys.current())!;
    expect(view.text).not.toContain(key);

    const refused = await operator.post("/api/admin/ingest/reveal-key");
    expect(refused.status).toBe(403);
    expect(refused.body.reauth).toBe(true);
    expect(refused.text).not.toContain(key);

    expect((await operator.post("/api/admin/reauth", { password: "member-pass" })).status).toBe(200);
    const revealed = await operator.post("/api/admin/ingest/reveal-key");
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({ streamKey: key });
    // Roles that do not run the stream are refused as before.
    expect((await (await member("key-mod", "moderator")).post("/api/admin/ingest/reveal-key")).status).toBe(403);

    const reveals = await auditEntries("ingest.reveal-key");
    expect(reveals).toHaveLength(1);
    expect(reveals[0]!.actor).toBe("key-keeper");
    expect(JSON.stringify(reveals)).not.toContain(key);
  });
});

describe("two factors for all", () => {
  test("turned on, it reaches open sessions: a signed-in support member without a second factor can only enrol, not step up with the password, and refunds nothing", async () => {
    const buyer = app.client();
    const { paymentIntentId } = await buyDemoCode(buyer, "buyer@example.com");
    const support = await member("help-desk", "support");
    expect((await support.get("/api/admin/payments")).status).toBe(200);
    // Their chat socket, open as staff.
    const socket = await WsClient.connect(app, support);

    // An owner with a second factor turns the rule on (one without would be sent to enrol too).
    const owner = await member("tfa-owner", "owner");
    const setup = await owner.post("/api/admin/2fa/totp/setup");
    expect((await owner.post("/api/admin/2fa/totp/enable", { code: totp(setup.body.secret) })).status).toBe(200);
    expect((await owner.put("/api/admin/team/require-2fa", { required: true })).status).toBe(200);
    try {
      // The chat socket closes with a code that reconnects, and the new one is refused: no staff, no viewer.
      expect((await socket.closed).code).toBe(4005);
      expect(await upgradeStatus(app, { origin: app.origin, cookie: `dreadcast_admin=${support.cookies.get("dreadcast_admin")}` })).toBe(401);
      await staleProof("help-desk");
      const payments = await support.get("/api/admin/payments");
      expect(payments.status).toBe(403);
      expect(payments.body).toEqual({ enrol: true, error: "Set up two-factor sign-in to continue" });
      const refund = await support.post("/api/admin/payments/refund", { paymentIntentId });
      expect(refund.status).toBe(403);
      expect(refund.body.enrol).toBe(true);
      const profile = (await support.get("/api/admin/profile")).body;
      expect(profile).toMatchObject({ username: "help-desk", mustEnrol: true, capabilities: [] });
      // Step-up cannot be the password alone.
      const reauth = await support.post("/api/admin/reauth", { password: "member-pass" });
      expect(reauth.status).toBe(403);
      expect(reauth.body.enrol).toBe(true);
      expect(reauth.body.error).toBe("Your team requires two-factor sign-in. Sign in again to set it up.");
      expect((await support.post("/api/admin/payments/refund", { paymentIntentId })).status).toBe(403);
      const ledger = (await app.ctx.ledger.list(paymentIntentId))[0]!;
      expect(ledger.refundedAmount).toBe(0);
      // Not an admin on the stream page either.
      expect((await support.get("/api/me")).body.role).not.toBe("admin");
      // Enrolling is what stays open: the set-up is there, behind a fresh proof, which a new sign-in gives.
      expect((await support.get("/api/admin/2fa")).status).toBe(200);
      expect((await support.post("/api/admin/2fa/totp/setup")).body.reauth).toBe(true);
      const again = app.client();
      expect((await again.post("/api/admin/login", { username: "help-desk", password: "member-pass" }, ownAddress())).body).toEqual({ username: "help-desk", mustEnrol: true });
      const own = await again.post("/api/admin/2fa/totp/setup");
      expect(own.status).toBe(200);
      expect((await again.post("/api/admin/2fa/totp/enable", { code: totp(own.body.secret) })).status).toBe(200);
      expect((await again.get("/api/admin/payments")).status).toBe(200);
      // The old session, its member now enrolled, is a full one again (with a proof as old as it was).
      expect((await support.get("/api/admin/payments")).status).toBe(200);
      expect((await support.post("/api/admin/payments/refund", { paymentIntentId })).body.reauth).toBe(true);
    } finally {
      await app.ctx.adminTeam.team.setRequireTwoFactor(false);
    }
  });
});

describe("admin sessions at rest", () => {
  test("the database holds the hash of the cookie's token: a copied id opens nothing, the cookie does", async () => {
    const operator = await member("at-rest", "operator");
    const token = operator.cookies.get("dreadcast_admin")!;
    const admin = (await app.ctx.admins.findByUsername("at-rest"))!;
    const rows = await app.ctx.store.all<{ id: string }>("SELECT id FROM admin_sessions WHERE admin_id = ?", admin.id);
    expect(rows).toEqual([{ id: sha256Hex(token) }]);
    const thief = app.client();
    thief.cookies.set("dreadcast_admin", rows[0]!.id);
    expect((await thief.get("/api/admin/profile")).status).toBe(401);
    expect((await operator.get("/api/admin/profile")).status).toBe(200);
    // The session list still knows which is this one, and sign-out ends it.
    const listed = (await operator.get("/api/admin/sessions")).body.sessions;
    expect(listed.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(rows[0]!.id);
    await operator.post("/api/admin/logout");
    expect(await app.ctx.store.all("SELECT id FROM admin_sessions WHERE admin_id = ?", admin.id)).toEqual([]);
  });
});

describe("look-alike staff", () => {
  test("a new member's name that looks like a member's is refused, by invite and by the command line", async () => {
    const owner = await signIn("owner", "owner-pass");
    for (const name of ["Owner", "оwner", "ＯＷＮＥＲ", "ownеr"]) {
      const invite = await owner.post("/api/admin/team/invites", { email: `${encodeURIComponent(name).length}@example.com`, role: "support" });
      expect(invite.status).toBe(201);
      const token = invite.body.inviteUrl.split("/").pop();
      const res = await app.client().post(`/api/admin/invites/${token}/accept`, { username: name, password: "look-alike-pass" });
      expect({ name, status: res.status }).toEqual({ name, status: 409 });
      expect(res.body.error).toMatch(name === "Owner" ? /^An admin named 'Owner' already exists$/ : /looks like 'owner'/);
      // The invite is not used up by a refused name.
      expect((await app.client().get(`/api/admin/invites/${token}`)).status).toBe(200);
    }
    await expect(app.ctx.admins.create("оwner", "cli@example.com", "look-alike-pass")).rejects.toThrow(/looks like 'owner'/);
    const team: string[] = (await owner.get("/api/admin/team")).body.members.map((m: { username: string }) => m.username);
    expect(team.filter((name) => nameSkeleton(name) === nameSkeleton("owner"))).toEqual(["owner"]);
  });
});

describe("the audit log", () => {
  test("a step-up that succeeds, every download and a refund's state before are logged", async () => {
    const owner = await signIn("owner", "owner-pass");
    await staleProof("owner");
    expect((await owner.post("/api/admin/reauth", { password: "wrong" })).status).toBe(401);
    expect((await owner.post("/api/admin/reauth", { password: "owner-pass" })).status).toBe(200);
    const reauths = (await auditEntries("reauth")).filter((e) => e.actor === "owner");
    expect(reauths.map((e) => e.action)).toEqual(["reauth", "reauth.failed"]);
    expect(reauths[0]).toMatchObject({ actor: "owner", after: { factor: "password" } });

    for (const path of ["/api/admin/users.csv", "/api/admin/payments.csv", "/api/admin/access-codes.csv", "/api/admin/chat-export.csv", "/api/admin/chat-export.json"]) {
      expect((await owner.get(path)).status).toBe(200);
    }
    const downloads = (await auditEntries("export")).map((e) => `${e.action} ${e.target}`);
    for (const d of ["export.users csv", "export.payments csv", "export.access-codes csv", "export.chat csv", "export.chat json"]) expect(downloads).toContain(d);

    await owner.put("/api/admin/livestream-settings", { accessPrice: 750 });
    const { paymentIntentId } = await buyDemoCode(app.client(), "refund-me@example.com");
    const refunded = await owner.post("/api/admin/payments/refund", { paymentIntentId, amount: 250, expectedRefunded: 0 });
    expect(refunded.status).toBe(200);
    const entry = (await auditEntries("payment.refund"))[0]!;
    expect(entry.target).toBe(paymentIntentId);
    expect(entry.before).toEqual({ status: "succeeded", amount: 750, currency: "gbp", refundedAmount: 0, disputedAmount: 0 });
    expect(entry.after).toEqual({ status: "partly_refunded", amount: 750, currency: "gbp", refundedAmount: 250, disputedAmount: 0, refunded: 250, reason: null });
  });
});
