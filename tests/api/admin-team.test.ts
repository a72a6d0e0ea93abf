import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Role } from "../../src/contracts/team.ts";
import { memberOf, ownAddress, signedIn, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { totp } from "../support/totp.ts";

/**
 * A code for a time step not used yet. The server takes the step before and after the current one too, each
 * account's steps only in rising order: the next unused of those three, else a wait for the next step.
 */
async function freshCode(secret: string, used: Set<number>): Promise<string> {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / 30_000);
    const step = Math.max(now % 30_000 < 25_000 ? current - 1 : current, used.size ? Math.max(...used) + 1 : -Infinity);
    if (step <= current + 1) {
      used.add(step);
      return totp(secret, step * 30_000);
    }
    await Bun.sleep(30_000 - (now % 30_000) + 50);
  }
}

/** Each sign-in from an address of its own (the app trusts the local proxy). */
const nextAddress = ownAddress;

// Every sign-in hashes a password (argon2id): a test with several takes seconds on a busy machine.
setDefaultTimeout(30_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: ["127.0.0.1"] });
  await app.ctx.admins.create("owner", "owner@example.com", "owner-pass");
});
afterAll(() => app.close());

const signIn = (username: string, password: string) => signedIn(app, username, password);
const member = (username: string, role: Role) => memberOf(app, username, role);

/** Turns on TOTP for a signed-in client; answers the secret and the recovery codes. */
async function enableTotp(client: TestClient): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.post("/api/admin/2fa/totp/setup");
  expect(setup.status).toBe(200);
  expect(setup.body.otpauthUrl).toStartWith("otpauth://totp/");
  expect(setup.body.qrSvg).toContain("<svg");
  const enabled = await client.post("/api/admin/2fa/totp/enable", { code: totp(setup.body.secret) });
  expect(enabled.status).toBe(200);
  expect(enabled.body.recoveryCodes).toHaveLength(10);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}

describe("roles are checked on the server for every admin route", () => {
  test("a moderator calling refund, settings, codes and team APIs directly gets 403", async () => {
    const mod = await member("mod-one", "moderator");
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/admin/payments/refund", { paymentIntentId: "pi_x" }],
      ["GET", "/api/admin/payments"],
      ["PUT", "/api/admin/livestream-settings", { eventTitle: "Mine now" }],
      ["GET", "/api/admin/access-codes"],
      ["POST", "/api/admin/generate-access-code", { kind: "SKP" }],
      ["GET", "/api/admin/team"],
      ["POST", "/api/admin/team/invites", { email: "x@example.com", role: "owner" }],
      ["PUT", "/api/admin/stream-source", { kind: "embed" }],
      ["POST", "/api/admin/ingest/rotate-key"],
      ["GET", "/api/admin/audit-log"],
      ["GET", "/api/admin/users.csv"],
    ];
    for (const [method, path, body] of calls) {
      const res = await mod.request(method, path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.body.error).toBe("Your role does not allow this");
    }
    // What a moderator may do: the chat's tools, and the users without their e-mail addresses or codes.
    expect((await mod.get("/api/admin/banned-users")).status).toBe(200);
    expect((await mod.get("/api/admin/moderation-log")).status).toBe(200);
    const users = await mod.get("/api/admin/users");
    expect(users.status).toBe(200);
    for (const u of users.body) expect([u.email, u.accessCode]).toEqual([null, null]);
  });

  test("support handles codes and payments but not settings; an operator sets the event but not its price", async () => {
    const support = await member("help-desk", "support");
    expect((await support.get("/api/admin/payments")).status).toBe(200);
    expect((await support.get("/api/admin/access-codes")).status).toBe(200);
    expect((await support.put("/api/admin/livestream-settings", { eventTitle: "x" })).status).toBe(403);
    const operator = await member("stage-hand", "operator");
    expect((await operator.put("/api/admin/livestream-settings", { eventTitle: "The Night Shift" })).status).toBe(200);
    const price = await operator.put("/api/admin/livestream-settings", { accessPrice: 999 });
    expect(price.status).toBe(403);
    expect(price.body.error).toBe("Only an owner can change the price or currency");
    expect((await operator.get("/api/admin/payments")).status).toBe(403);
  });

  test("the profile names the role and what it may do", async () => {
    const mod = await member("mod-two", "moderator");
    const profile = (await mod.get("/api/admin/profile")).body;
    expect(profile.role).toBe("moderator");
    expect(profile.capabilities).toContain("moderation");
    expect(profile.capabilities).not.toContain("payments");
    expect(profile.twoFactor).toEqual({ totp: false, webauthn: 0, recoveryCodesLeft: 0 });
  });
});

describe("two factors: TOTP", () => {
  test("a password alone then opens nothing; the right code, once, signs in", async () => {
    const used = new Set<number>();
    const owner2 = await member("owner-totp", "owner");
    const { secret, recoveryCodes } = await enableTotp(owner2);
    used.add(Math.floor(Date.now() / 30_000));

    const browser = app.client();
    const first = await browser.post("/api/admin/login", { username: "owner-totp", password: "member-pass" }, nextAddress());
    expect(first.status).toBe(200);
    expect(first.body.secondFactor).toEqual(["totp", "recovery"]);
    expect(first.body.username).toBeUndefined();
    expect(browser.cookies.has("dreadcast_admin")).toBe(false);
    // The challenge opens no admin API.
    expect((await browser.get("/api/admin/stats")).status).toBe(401);
    expect((await browser.get("/api/admin/profile")).status).toBe(401);

    const code = await freshCode(secret, used);
    const done = await browser.post("/api/admin/login/second-factor", { code }, nextAddress());
    expect(done.status).toBe(200);
    expect(browser.cookies.has("dreadcast_admin")).toBe(true);
    expect((await browser.get("/api/admin/stats")).status).toBe(200);

    // The same code in the same step, on a new sign-in: refused, saying it was used, and the sign-in stays open.
    const again = app.client();
    await again.post("/api/admin/login", { username: "owner-totp", password: "member-pass" }, nextAddress());
    const replay = await again.post("/api/admin/login/second-factor", { code }, nextAddress());
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe("That code was already used. Wait for the next one in your app.");
    expect(again.cookies.has("dreadcast_admin_challenge")).toBe(true);
    const next = await again.post("/api/admin/login/second-factor", { recoveryCode: recoveryCodes[0] }, nextAddress());
    expect(next.status).toBe(200);
  });

  test("two requests racing with the same code: exactly one succeeds", async () => {
    const client = await member("racer-totp", "support");
    const { secret } = await enableTotp(client);
    const a = app.client();
    const b = app.client();
    await a.post("/api/admin/login", { username: "racer-totp", password: "member-pass" }, nextAddress());
    await b.post("/api/admin/login", { username: "racer-totp", password: "member-pass" }, nextAddress());
    // The step enableTotp used is spent: the next step's code (taken one step early).
    const code = totp(secret, Date.now(), 1);
    const results = await Promise.all([a.post("/api/admin/login/second-factor", { code }, nextAddress()), b.post("/api/admin/login/second-factor", { code }, nextAddress())]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(results.find((r) => r.status === 401)!.body.error).toBe("That code was already used. Wait for the next one in your app.");
  });

  test("codes two steps old or ahead, and malformed ones, are refused; the fifth wrong code ends the challenge, saying so", async () => {
    const client = await member("wrong-codes", "operator");
    const { secret } = await enableTotp(client);
    const browser = app.client();
    await browser.post("/api/admin/login", { username: "wrong-codes", password: "member-pass" }, nextAddress());
    for (const body of [{ code: "" }, { code: "12345" }, { code: "1234567" }, { code: "١٢٣٤٥٦" }, { code: ["123456"] }, { code: 123456 }, { code: "12 456" }, { nope: 1 }]) {
      const res = await browser.post("/api/admin/login/second-factor", body, nextAddress());
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const huge = await browser.post("/api/admin/login/second-factor", JSON.stringify({ code: "1".repeat(2_000_000) }), { "content-type": "application/json" });
    expect([400, 413]).toContain(huge.status);
    // Malformed input is not a guess; wrong codes are: four leave the challenge open…
    for (const offset of [-2, 2, -3, 3]) {
      const res = await browser.post("/api/admin/login/second-factor", { code: totp(secret, Date.now(), offset) }, nextAddress());
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("That code is not right");
    }
    // …the fifth ends it, and then even the right code needs the password again.
    const fifth = await browser.post("/api/admin/login/second-factor", { code: "000000" === totp(secret) ? "000001" : "000000" }, nextAddress());
    expect(fifth.status).toBe(401);
    expect(fifth.body.error).toBe("Too many wrong codes. Enter your password again.");
    expect(browser.cookies.has("dreadcast_admin_challenge")).toBe(false);
    const sixth = await browser.post("/api/admin/login/second-factor", { code: totp(secret) }, nextAddress());
    expect(sixth.status).toBe(401);
    expect(sixth.body.error).toBe("Your sign-in has expired. Enter your password again.");
  });

  test("a challenge is for its own account only, and not after it expired", async () => {
    const a = await member("chal-a", "support");
    const { secret } = await enableTotp(a);
    const b = await member("chal-b", "support");
    await enableTotp(b);
    const browser = app.client();
    await browser.post("/api/admin/login", { username: "chal-b", password: "member-pass" }, nextAddress());
    // chal-a's code (of a step chal-a has not used) against chal-b's challenge is a wrong code.
    expect((await browser.post("/api/admin/login/second-factor", { code: totp(secret, Date.now(), 1) }, nextAddress())).status).toBe(401);
    // An expired challenge: refused.
    await app.ctx.store.run("UPDATE admin_challenges SET expires_at = ?", Date.now() - 1);
    const late = await browser.post("/api/admin/login/second-factor", { code: totp(secret) }, nextAddress());
    expect(late.status).toBe(401);
    expect(late.body.error).toBe("Your sign-in has expired. Enter your password again.");
  });

  test("recovery codes are each good once; a new set ends the old one", async () => {
    const client = await member("recover-me", "support");
    const { secret, recoveryCodes } = await enableTotp(client);
    const browser = app.client();
    await browser.post("/api/admin/login", { username: "recover-me", password: "member-pass" }, nextAddress());
    expect((await browser.post("/api/admin/login/second-factor", { recoveryCode: recoveryCodes[0] }, nextAddress())).status).toBe(200);
    const again = app.client();
    await again.post("/api/admin/login", { username: "recover-me", password: "member-pass" }, nextAddress());
    const reused = await again.post("/api/admin/login/second-factor", { recoveryCode: recoveryCodes[0] }, nextAddress());
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe("That recovery code was already used. Each one works once: enter another.");
    // A code never of this account's set is just not right.
    const unknown = await again.post("/api/admin/login/second-factor", { recoveryCode: "aaaaa-bbbbb" }, nextAddress());
    expect(unknown.body.error).toBe("That code is not right");
    // Given again to confirm a change (password and code), it says the same.
    const confirmAgain = await client.post("/api/admin/2fa/recovery-codes", { password: "member-pass", code: recoveryCodes[0] });
    expect(confirmAgain.status).toBe(401);
    expect(confirmAgain.body.error).toBe("That recovery code was already used. Each one works once: enter another.");

    // A code of the next step: the one enableTotp used is spent.
    const fresh = await client.post("/api/admin/2fa/recovery-codes", { password: "member-pass", code: totp(secret, Date.now(), 1) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    const third = app.client();
    await third.post("/api/admin/login", { username: "recover-me", password: "member-pass" }, nextAddress());
    expect((await third.post("/api/admin/login/second-factor", { recoveryCode: recoveryCodes[1] }, nextAddress())).status).toBe(401);
    expect((await third.post("/api/admin/login/second-factor", { recoveryCode: fresh.body.recoveryCodes[0].toUpperCase() }, nextAddress())).status).toBe(200);
  });

  test("a sealed TOTP secret copied to another member's row does not open there", async () => {
    const a = await member("sealed-a", "operator");
    const { secret } = await enableTotp(a);
    const b = await member("sealed-b", "operator");
    const rowA = (await app.ctx.store.get<{ totp_secret: string }>("SELECT totp_secret FROM admins WHERE username = 'sealed-a'"))!;
    const bId = (await app.ctx.admins.findByUsername("sealed-b"))!.id;
    await app.ctx.store.run("UPDATE admins SET totp_secret = ?, totp_enabled_at = ?, totp_last_step = 0 WHERE id = ?", rowA.totp_secret, Date.now(), bId);
    expect(await app.ctx.adminTeam.twoFactor.verifyTotp(bId, totp(secret))).toBe("wrong");
    expect(rowA.totp_secret).not.toContain(secret);
    void b;
  });
});

describe("step-up for what moves money or keys", () => {
  test("older than 10 minutes: 403 { reauth: true }; the password (no 2FA) or a code renews it", async () => {
    const owner = await signIn("owner", "owner-pass");
    await app.ctx.store.run("UPDATE admin_sessions SET verified_at = ?", Date.now() - 11 * 60_000);
    const stale = await owner.post("/api/admin/ingest/rotate-key");
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ reauth: true, error: "Confirm it's you to continue" });
    expect((await owner.put("/api/admin/stream-source", { kind: "embed" })).body.reauth).toBe(true);
    expect((await owner.post("/api/admin/payments/refund", { paymentIntentId: "pi_none" })).body.reauth).toBe(true);
    expect((await owner.post("/api/admin/reauth", { password: "wrong" })).status).toBe(401);
    expect((await owner.post("/api/admin/reauth", { password: "owner-pass" })).status).toBe(200);
    expect((await owner.post("/api/admin/ingest/rotate-key")).status).toBe(200);
  });
});

describe("sessions", () => {
  test("a member sees their sessions, ends one, and the ended one's next request is 401; a new password ends the others", async () => {
    const laptop = await member("sess-user", "support");
    const phone = await signIn("sess-user", "member-pass");
    const list = (await laptop.get("/api/admin/sessions")).body.sessions;
    expect(list.length).toBe(2);
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const other = list.find((s: { current: boolean }) => !s.current);
    expect(JSON.stringify(list)).not.toContain(laptop.cookies.get("dreadcast_admin")!);
    expect((await laptop.request("DELETE", `/api/admin/sessions/${other.id}`)).status).toBe(200);
    expect((await phone.get("/api/admin/stats")).status).toBe(401);

    const tablet = await signIn("sess-user", "member-pass");
    const changed = await laptop.post("/api/admin/password", { current: "member-pass", next: "new-member-pass" });
    expect(changed.status).toBe(200);
    expect((await tablet.get("/api/admin/stats")).status).toBe(401);
    expect((await laptop.get("/api/admin/stats")).status).toBe(200);
  });
});

/** An open panel's event stream (GET /api/admin/events) with `client`'s cookies: each event's name as it arrives. */
async function openPanelEvents(client: TestClient) {
  const abort = new AbortController();
  const res = await fetch(`${app.url}/api/admin/events`, {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  /** The next event's name (comments and the retry line skipped), or "timeout" after `ms`. */
  const next = async (ms = 3000): Promise<string> => {
    const until = Date.now() + ms;
    for (;;) {
      const end = buffered.indexOf("\n\n");
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const name = block.split("\n").find((line) => line.startsWith("event: "));
        if (name) return name.slice("event: ".length);
        continue;
      }
      const left = until - Date.now();
      if (left <= 0) return "timeout";
      const chunk = await Promise.race([reader.read(), Bun.sleep(left).then(() => null)]);
      if (chunk === null) return "timeout";
      if (chunk.done) return "closed";
      buffered += decoder.decode(chunk.value, { stream: true });
    }
  };
  return { next, close: () => abort.abort() };
}

describe("an open panel is told at once", () => {
  test("a role change and ended sessions each send the member's open panel a profile event; nobody else's panel hears it", async () => {
    const owner = await signIn("owner", "owner-pass");
    const watcher = await member("panel-watcher", "support");
    const bystander = await member("panel-bystander", "support");
    const id = (await app.ctx.admins.findByUsername("panel-watcher"))!.id;
    const panel = await openPanelEvents(watcher);
    const other = await openPanelEvents(bystander);
    try {
      expect((await owner.put(`/api/admin/team/${id}`, { role: "moderator" })).status).toBe(200);
      expect(await panel.next()).toBe("profile");
      expect((await watcher.get("/api/admin/profile")).body.role).toBe("moderator");
      expect((await owner.post(`/api/admin/team/${id}/end-sessions`)).status).toBe(200);
      expect(await panel.next()).toBe("profile");
      expect((await watcher.get("/api/admin/profile")).body.error).toBe("An owner signed you out of the panel. Sign in again to go on.");
      // The bystander's panel heard none of it.
      expect(await other.next(300)).toBe("timeout");
    } finally {
      panel.close();
      other.close();
    }
    // Without a session there is no stream.
    expect((await fetch(`${app.url}/api/admin/events`)).status).toBe(401);
  });
});

describe("a signed-out panel is told why", () => {
  test("ended by an owner, by the member elsewhere, by a new password, with the member removed: each 401 says so; a logout or an unknown cookie just says not logged in", async () => {
    const owner = await signIn("owner", "owner-pass");
    const ghost = await member("told-why", "support");
    const ghostId = (await app.ctx.admins.findByUsername("told-why"))!.id;
    expect((await owner.post(`/api/admin/team/${ghostId}/end-sessions`)).status).toBe(200);
    const ended = await ghost.get("/api/admin/profile");
    expect(ended.status).toBe(401);
    expect(ended.body.error).toBe("An owner signed you out of the panel. Sign in again to go on.");
    // Every admin call says the same, not just the profile.
    expect((await ghost.get("/api/admin/access-codes")).body.error).toBe("An owner signed you out of the panel. Sign in again to go on.");

    const laptop = await signIn("told-why", "member-pass");
    const phone = await signIn("told-why", "member-pass");
    expect((await laptop.post("/api/admin/sessions/end-others")).status).toBe(200);
    expect((await phone.get("/api/admin/profile")).body.error).toBe("This session was ended from another of your devices. Sign in again to go on.");

    const tablet = await signIn("told-why", "member-pass");
    expect((await laptop.post("/api/admin/password", { current: "member-pass", next: "told-why-pass" })).status).toBe(200);
    expect((await tablet.get("/api/admin/profile")).body.error).toBe("Your password was changed, so this session ended. Sign in with the new one.");

    expect((await owner.request("DELETE", `/api/admin/team/${ghostId}`)).status).toBe(200);
    const removed = await laptop.get("/api/admin/stats");
    expect(removed.status).toBe(401);
    expect(removed.body.error).toBe("An owner removed you from the team, so you were signed out.");

    const leaving = await member("logs-out", "moderator");
    expect((await leaving.post("/api/admin/logout")).status).toBe(200);
    const stranger = app.client();
    stranger.cookies.set("dreadcast_admin", "f".repeat(64));
    for (const client of [stranger, app.client()]) expect((await client.get("/api/admin/profile")).body.error).toBe("Not logged in");
  });
});

describe("the team", () => {
  test("invite → accept once; a used or expired link is refused; the last owner cannot be demoted or removed", async () => {
    const owner = await signIn("owner", "owner-pass");
    const invite = await owner.post("/api/admin/team/invites", { email: "newbie@example.com", role: "support" });
    expect(invite.status).toBe(201);
    const token = invite.body.inviteUrl.split("/").pop();
    const guest = app.client();
    expect((await guest.get(`/api/admin/invites/${token}`)).body).toEqual({ email: "newbie@example.com", role: "support" });
    const accepted = await guest.post(`/api/admin/invites/${token}/accept`, { username: "newbie", password: "newbie-pass" });
    expect(accepted.status).toBe(201);
    expect((await guest.get("/api/admin/profile")).body.role).toBe("support");
    const twice = await app.client().post(`/api/admin/invites/${token}/accept`, { username: "newbie2", password: "newbie-pass" });
    expect(twice.status).toBe(404);

    const late = await owner.post("/api/admin/team/invites", { email: "late@example.com", role: "moderator" });
    await app.ctx.store.run("UPDATE admin_invites SET expires_at = ? WHERE id = ?", Date.now() - 1, late.body.id);
    expect((await app.client().post(`/api/admin/invites/${late.body.inviteUrl.split("/").pop()}/accept`, { username: "late", password: "late-pass" })).status).toBe(404);

    const team = (await owner.get("/api/admin/team")).body;
    const newbie = team.members.find((m: { username: string }) => m.username === "newbie");
    expect(newbie.twoFactor).toBe(false);
    expect((await owner.put(`/api/admin/team/${newbie.id}`, { role: "operator" })).status).toBe(200);
    expect((await owner.request("DELETE", `/api/admin/team/${newbie.id}`)).status).toBe(200);
    expect((await guest.get("/api/admin/profile")).status).toBe(401);

    // Demote every other owner, then the last one cannot go.
    for (const m of (await owner.get("/api/admin/team")).body.members)
      if (m.role === "owner" && m.username !== "owner") await owner.put(`/api/admin/team/${m.id}`, { role: "support" });
    const me = (await owner.get("/api/admin/team")).body.members.find((m: { isYou: boolean }) => m.isYou);
    const demote = await owner.put(`/api/admin/team/${me.id}`, { role: "operator" });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toBe("The team needs at least one owner");
  });

  test("owners can require two factors: a member without is sent to enrol and can do nothing else until they have", async () => {
    // An owner without a second factor may not turn the rule on: it would hold them too.
    const plain = await signIn("owner", "owner-pass");
    const refused = await plain.put("/api/admin/team/require-2fa", { required: true });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("Set up two-factor sign-in for yourself first: the rule applies to you too, at once");
    const owner = await member("owner-rule", "owner");
    await enableTotp(owner);
    expect((await owner.put("/api/admin/team/require-2fa", { required: true })).status).toBe(200);
    try {
      const browser = app.client();
      if (!(await app.ctx.admins.findByUsername("enrol-me"))) await app.ctx.admins.create("enrol-me", "enrol@example.com", "member-pass", "operator");
      const login = await browser.post("/api/admin/login", { username: "enrol-me", password: "member-pass" }, nextAddress());
      expect(login.body).toEqual({ username: "enrol-me", mustEnrol: true });
      const blocked = await browser.get("/api/admin/stats");
      expect(blocked.status).toBe(403);
      expect(blocked.body.enrol).toBe(true);
      expect((await browser.get("/api/admin/profile")).body.mustEnrol).toBe(true);
      const before = browser.cookies.get("dreadcast_admin");
      await enableTotp(browser);
      expect(browser.cookies.get("dreadcast_admin")).not.toBe(before);
      expect((await browser.get("/api/admin/stats")).status).toBe(200);
    } finally {
      expect((await owner.put("/api/admin/team/require-2fa", { required: false })).status).toBe(200);
    }
  });
});

describe("the audit log", () => {
  test("records sign-ins and changes with who, what and where, never a secret; refuses edits", async () => {
    const owner = await signIn("owner", "owner-pass");
    await app.client().post("/api/admin/login", { username: "owner", password: "not-the-password" }, nextAddress());
    await owner.post("/api/admin/generate-access-code", { kind: "SKP", email: "guest@example.com" });
    const log = await owner.get("/api/admin/audit-log");
    expect(log.status).toBe(200);
    const actions = log.body.entries.map((e: { action: string }) => e.action);
    for (const a of ["sign-in", "sign-in.failed", "access-code.create", "team.invite", "password.change", "2fa.totp-enable"]) expect(actions).toContain(a);
    const text = JSON.stringify(log.body);
    for (const secret of ["not-the-password", "owner-pass", "member-pass", "new-member-pass"]) expect(text).not.toContain(secret);
    const created = log.body.entries.find((e: { action: string }) => e.action === "access-code.create");
    expect(created.actor).toBe("owner");
    expect(created.target).toMatch(/^#\d+ …[A-Z0-9]{4}$/);
    const filtered = await owner.get("/api/admin/audit-log?action=sign-in.failed");
    expect(filtered.body.entries.every((e: { action: string }) => e.action === "sign-in.failed")).toBe(true);
    expect((await owner.get("/api/admin/audit-log?from=yesterday")).status).toBe(400);
    const csv = await owner.get("/api/admin/audit-log.csv");
    expect(csv.text.split(/\r?\n/)[0]).toBe("time,member,action,target,before,after,address");
    await expect(app.ctx.store.run("UPDATE audit_log SET actor = 'nobody'")).rejects.toThrow();
    await expect(app.ctx.store.run("DELETE FROM audit_log")).rejects.toThrow();
  });
});

describe("e-mails about the team", () => {
  test("a member is told when their sign-in changes; owners when someone joins or leaves", async () => {
    const mails = async (to: string) =>
      await app.ctx.store.all<{ subject: string; text_body: string }>("SELECT subject, text_body FROM email_queue WHERE to_address = ? ORDER BY id", to);
    const client = await member("told-member", "support");
    expect((await client.post("/api/admin/password", { current: "member-pass", next: "member-pass-2" })).status).toBe(200);
    const told = await mails("told-member@example.com");
    expect(told.map((m) => m.subject)).toContain("Your admin sign-in changed");
    expect(told.at(-1)!.text_body).toContain("your password was changed");
    expect(told.at(-1)!.text_body).not.toContain("member-pass");

    const owner = await signIn("owner", "owner-pass");
    const invite = await owner.post("/api/admin/team/invites", { email: "joiner@example.com", role: "moderator" });
    expect((await mails("joiner@example.com")).map((m) => m.subject)).toEqual([`You are invited to the admin team of ${(await app.ctx.settings.get()).eventTitle}`]);
    await app.client().post(`/api/admin/invites/${invite.body.inviteUrl.split("/").pop()}/accept`, { username: "joiner", password: "joiner-pass" });
    const ownerMail = await mails("owner@example.com");
    expect(ownerMail.some((m) => m.subject === "Your admin team changed" && m.text_body.includes("joiner (joiner@example.com) joined the team as moderator"))).toBe(true);
  });
});
