import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { WS_CLOSE_BANNED, WS_CLOSE_KICKED } from "../../src/contracts/chat.ts";
import { DEVICE_RESET_MESSAGE, WS_CLOSE_SESSION_ENDED } from "../../src/contracts/chat-limits.ts";
import { RedisClient } from "bun";
import { clusterNamespace, RedisCluster } from "../../src/cluster/redis-cluster.ts";
import { adminOf, loginAsAdmin, startTestApp, TestClient, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { cookieOf, say, upgradeStatus, WsClient } from "../support/ws.ts";
import { enter, joinAs } from "../support/viewer.ts";
import { startHlsOrigin } from "../support/hls-origin.mjs";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { startTestRedis, type TestRedis } from "../support/redis.ts";
import { makeFingerprint } from "../support/fingerprint.mjs";

/**
 * Two or three real instances in this process, each with its own port, sharing one PostgreSQL database
 * and a Redis server of the test's own: what a viewer sees does not depend on where the balancer sent them.
 */
const redis: TestRedis | null = await startTestRedis();
const postgres = await postgresAvailable();
const ready = redis !== null && postgres;
if (!ready) console.warn(`cluster tests skipped: ${redis ? "" : "no redis-server binary; "}${postgres ? "" : "no PostgreSQL server answers"}`);

interface Cluster {
  db: TestDatabase;
  apps: TestApp[];
  close(): Promise<void>;
}

const open: Cluster[] = [];

async function startCluster(size = 2, names = ["alpha", "beta", "gamma"]): Promise<Cluster> {
  const db = await createTestDatabase("dreadcast_cluster");
  const apps: TestApp[] = [];
  for (let i = 0; i < size; i++) apps.push(await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: names[i]!, allowPrivateOrigins: true }));
  const cluster: Cluster = {
    db,
    apps,
    async close() {
      for (const app of apps.splice(0)) await app.close().catch(() => {});
      await db.drop().catch(() => {});
    },
  };
  open.push(cluster);
  return cluster;
}

/** The same browser (its cookies) pointed at another instance. */
function sameBrowserOn(app: TestApp, viewer: TestClient): TestClient {
  const client = app.client();
  for (const [name, value] of viewer.cookies) client.cookies.set(name, value);
  return client;
}

const lastCount = (ws: WsClient) => ws.of("viewer_count").at(-1)?.count;
const lastHearts = (ws: WsClient) => ws.of("hearts").at(-1)?.count;

afterAll(async () => {
  for (const cluster of open.splice(0)) await cluster.close();
  await redis?.stop();
});

describe.skipIf(!ready)("a cluster of instances sharing one event", () => {
  const sockets: WsClient[] = [];
  const connect = async (app: TestApp, client: TestClient) => {
    const ws = await WsClient.connect(app, client);
    sockets.push(ws);
    return ws;
  };
  afterEach(async () => {
    for (const ws of sockets.splice(0)) ws.close();
    for (const cluster of open.splice(0)) await cluster.close();
  });

  test("a chat line sent on one instance reaches the viewers of the other, and both histories hold it", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const ann = await joinAs(alpha, "Ann");
    const bob = await joinAs(beta, "Bob");
    const annWs = await connect(alpha, ann);
    const bobWs = await connect(beta, bob);

    const line = await say(annWs, "anyone hear that?");
    expect((await bobWs.next("chat", (e) => e.message.text === "anyone hear that?")).message).toEqual(line);
    await say(bobWs, "it came from the cellar");
    await annWs.next("chat", (e) => e.message.text === "it came from the cellar");

    // A viewer joining either instance gets both lines in its history, in order.
    for (const app of [alpha, beta]) {
      const late = await connect(app, await joinAs(app, `Late${app === alpha ? "A" : "B"}`));
      const history = late.of("chatHistory")[0]!.messages.map((m) => m.text);
      expect(history.slice(-2)).toEqual(["anyone hear that?", "it came from the cellar"]);
    }
  });

  test("pins, deletes, donations' meter and settings changes reach every instance", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const mod = await joinAs(alpha, "Marrow", "MOD");
    const modWs = await connect(alpha, mod);
    const viewer = await joinAs(beta, "Viv");
    const viewerWs = await connect(beta, viewer);

    const line = await say(modWs, "pin me");
    await viewerWs.next("chat", (e) => e.message.id === line.id);
    modWs.send({ type: "pin", messageId: line.id });
    expect((await viewerWs.next("message_updated", (e) => e.message.id === line.id)).message.isPinned).toBe(true);

    const doomed = await say(modWs, "delete me");
    await viewerWs.next("chat", (e) => e.message.id === doomed.id);
    modWs.send({ type: "delete_message", messageId: doomed.id });
    await viewerWs.next("message_deleted", (e) => e.messageId === doomed.id);
    // The other instance's memory followed: a joining socket there no longer gets the deleted line.
    const late = await connect(beta, await joinAs(beta, "Late"));
    expect(late.of("chatHistory")[0]!.messages.map((m) => m.id)).not.toContain(doomed.id);

    // The admin saves the settings on alpha: beta's viewers are told, and beta's own answers change at once.
    const admin = await adminOf(alpha);
    // beta has the settings in its cache before the change.
    expect((await beta.client().get("/api/livestream-settings")).body.eventTitle).not.toBe("The Night Shift");
    const current = (await admin.get("/api/admin/livestream-settings")).body;
    const saved = await admin.put("/api/admin/livestream-settings", {
      eventTitle: "The Night Shift",
      thumbnailUrl: current.thumbnailUrl,
      embedUrl: current.embedUrl,
      donationGoal: 77700,
      isActive: current.isActive,
      startDate: current.startDate,
    });
    expect(saved.status).toBe(200);
    expect((await viewerWs.next("settings_update")).settings.eventTitle).toBe("The Night Shift");
    expect((await viewerWs.next("donation_update", (e) => e.goal === 77700)).goal).toBe(77700);
    expect((await beta.client().get("/api/livestream-settings")).body.eventTitle).toBe("The Night Shift");
  });

  test("the night's phase is the cluster's: opened and ended on one instance, every instance answers it and tells its pages", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const phaseOn = async (app: TestApp) => (await app.client().get("/api/livestream-settings")).body.phase as string;
    // beta has the settings (and so the phase) in its cache before each change.
    expect([await phaseOn(alpha), await phaseOn(beta)]).toEqual(["upcoming", "upcoming"]);
    const viewerWs = await connect(beta, await joinAs(beta, "Watcher"));
    const admin = await adminOf(alpha);
    expect(
      (await admin.put("/api/admin/livestream-settings", { startDate: new Date(Date.now() - 60_000).toISOString(), embedUrl: "https://player.example.com/embed/7" })).status,
    ).toBe(200);
    expect((await admin.post("/api/admin/event/open", {})).status).toBe(200);
    expect((await viewerWs.next("settings_update", (e) => e.settings.phase === "live")).settings.night.onAir).toBe(true);
    expect(await phaseOn(beta)).toBe("live");
    expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
    expect((await viewerWs.next("settings_update", (e) => e.settings.phase === "ended")).settings.night.endedAt).toEqual(expect.any(String));
    expect(await phaseOn(beta)).toBe("ended");
    // Ended on alpha, refused again on beta: one night, one end.
    const again = await sameBrowserOn(beta, admin).post("/api/admin/event/end", {});
    expect(again.status).toBe(409);
    // Nothing is sold on either instance while the replay is being prepared.
    for (const app of [alpha, beta]) expect((await app.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" })).status).toBe(409);
  });

  test("the viewer and heart counts are the cluster's, and a stopped instance's viewers drop out within seconds", async () => {
    const { apps } = await startCluster(3);
    const [alpha, beta, gamma] = apps as [TestApp, TestApp, TestApp];
    const watchA = await connect(alpha, await joinAs(alpha, "Ava"));
    await connect(alpha, await joinAs(alpha, "Abe"));
    const watchB = await connect(beta, await joinAs(beta, "Bea"));
    await connect(gamma, await joinAs(gamma, "Gus"));
    await connect(gamma, await joinAs(gamma, "Gia"));

    await eventually(() => lastCount(watchA) === 5 && lastCount(watchB) === 5, 5000, "5 viewers on both");
    expect(alpha.ctx.chat.viewerCount()).toBe(5);
    // The public settings' viewer count (asked of any instance) is the cluster's too.
    expect((await beta.client().get("/api/livestream-settings")).body.viewerCount).toBe(5);

    // Hearts from two instances add up, and the total is kept in the database.
    for (let i = 0; i < 4; i++) watchA.send({ type: "send_heart" });
    for (let i = 0; i < 3; i++) watchB.send({ type: "send_heart" });
    await eventually(() => lastHearts(watchA) === 7 && lastHearts(watchB) === 7, 5000, "7 hearts on both");
    await eventually(async () => (await alpha.ctx.store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))?.value === 7);

    // gamma goes away (its sockets with it): its two viewers leave the count everywhere.
    await apps.splice(2, 1)[0]!.close();
    await eventually(() => lastCount(watchA) === 3 && lastCount(watchB) === 3, 5000, "3 viewers after gamma stopped");
  }, 20_000);

  test("a ban, kick, timeout or revoked pass on one instance reaches the person's sockets on the other", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const mod = await joinAs(alpha, "Keeper", "MOD");
    const modWs = await connect(alpha, mod);

    // Ban: the socket on beta closes with the ban code, and beta refuses the upgrade afterwards.
    const troll = await joinAs(beta, "Troll");
    const trollWs = await connect(beta, troll);
    await say(trollWs, "spam spam");
    modWs.send({ type: "ban_user", targetUsername: "Troll" });
    expect((await trollWs.closed).code).toBe(WS_CLOSE_BANNED);
    await expect(WsClient.connect(beta, sameBrowserOn(beta, troll))).rejects.toThrow();

    // Kick: closed on beta, and beta keeps them out for the cool-down too.
    const pest = await joinAs(beta, "Pest");
    const pestWs = await connect(beta, pest);
    modWs.send({ type: "kick_user", targetUsername: "Pest" });
    expect((await pestWs.closed).code).toBe(WS_CLOSE_KICKED);
    await eventually(() => beta.ctx.chat.isKickedOut({ username: "Pest", userId: null, accessCodeId: null }), 2000, "kick known on beta");
    await expect(WsClient.connect(beta, sameBrowserOn(beta, pest))).rejects.toThrow();
    // The kick holds the code on beta too: a new name with it changes nothing.
    const pestCode = (await beta.ctx.access.findCode(pest.accessCode))!.id;
    expect(beta.ctx.chat.isKickedOut({ username: "Pest2", userId: null, accessCodeId: pestCode })).toBe(true);

    // Timeout: the cool-down reaches the socket on beta, and beta refuses the person's next line.
    const loud = await joinAs(beta, "Loud");
    const loudWs = await connect(beta, loud);
    modWs.send({ type: "timeout_user", username: "Loud", seconds: 60 });
    expect((await loudWs.next("chat_cooldown", (e) => e.reason === "timeout")).seconds).toBe(60);
    await eventually(() => beta.ctx.chat.moderation.timeouts.secondsLeft({ userId: null, username: "Loud", accessCodeId: null }) > 0, 2000, "timeout known on beta");
    loudWs.send({ type: "chat_message", text: "you can't silence me" });
    await loudWs.next("system_message", (e) => e.message.startsWith("You are timed out"));

    // A revoked pass: its socket on beta closes with the notice.
    const buyer = await joinAs(beta, "Buyer", "SKP");
    const buyerWs = await connect(beta, buyer);
    const codeId = (await alpha.ctx.store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", buyer.accessCode))!.id;
    alpha.ctx.chat.closeCode(codeId);
    expect((await buyerWs.closed).code).toBe(WS_CLOSE_KICKED);
    expect(buyerWs.of("system_message").at(-1)!.message).toContain("refunded or disputed");
  });

  test("Reset device in the panel of one instance ends the old device's chat and stream on the other at once", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const phone = await joinAs(beta, "Oldphone", "SKP");
    const phoneWs = await connect(beta, phone);
    const codeId = (await alpha.ctx.store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", phone.accessCode))!.id;
    expect((await (await adminOf(alpha)).post(`/api/admin/access-codes/${codeId}/reset-device`)).status).toBe(200);
    expect(await phoneWs.closed).toEqual({ code: WS_CLOSE_SESSION_ENDED, reason: "Device reset" });
    expect(phoneWs.of("system_message").map((e) => e.message)).toContain(DEVICE_RESET_MESSAGE);
    expect((await sameBrowserOn(beta, phone).get("/api/stream/playback")).status).toBe(401);
    expect(await upgradeStatus(beta, { origin: beta.origin, cookie: cookieOf(phone) })).toBe(401);
  });

  test("a viewer cannot multiply the chat limits by holding sockets on several instances", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const flooder = await joinAs(alpha, "Flood");
    const onAlpha = await connect(alpha, flooder);
    const onBeta = await connect(beta, sameBrowserOn(beta, flooder));
    // The burst limit is 3 lines a second per person: sent across both instances, the fourth is refused.
    onAlpha.send({ type: "chat_message", text: "one" });
    onBeta.send({ type: "chat_message", text: "two" });
    onAlpha.send({ type: "chat_message", text: "three" });
    await onAlpha.next("chat", (e) => e.message.text === "three");
    await onAlpha.next("chat", (e) => e.message.text === "two");
    onBeta.send({ type: "chat_message", text: "four" });
    await onBeta.next("system_message", (e) => e.message.startsWith("You are sending messages too fast"));

    // An address's HTTP limits hold across instances too: 10 lost-code requests an hour, wherever they land.
    for (let i = 0; i < 10; i++) expect((await [alpha, beta][i % 2]!.client().post("/api/lost-code", { email: `x${i}@example.com` })).status).toBe(200);
    expect((await beta.client().post("/api/lost-code", { email: "late@example.com" })).status).toBe(429);
    expect((await alpha.client().post("/api/lost-code", { email: "later@example.com" })).status).toBe(429);
  });

  test("a person's socket cap, and the lock-outs after failed code checks and logins, hold across instances", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    // Five sockets a person: three here and two there fill it, wherever the sixth would land.
    const tabs = await joinAs(alpha, "Tabs");
    const onAlpha = [];
    for (let i = 0; i < 3; i++) onAlpha.push(await connect(alpha, tabs));
    for (let i = 0; i < 2; i++) await connect(beta, sameBrowserOn(beta, tabs));
    const upgrade = (app: TestApp) => upgradeStatus(app, { origin: app.origin, cookie: cookieOf(tabs) });
    await eventually(async () => (await upgrade(alpha)) === 429, 3000, "alpha counting beta's sockets");
    expect(await upgrade(beta)).toBe(429);
    // One tab closed on alpha: a socket on beta is allowed again.
    onAlpha[0]!.close();
    await eventually(async () => (await upgrade(beta)) === 101, 3000, "beta seeing alpha's closed tab");

    // Wrong codes from one address, alternating between the instances: the twentieth locks the address out, on both.
    const guess = (app: TestApp, i: number) =>
      app.client().post("/api/validate-access", { accessCode: `SKP-GUES-SING-${String(i).padStart(4, "0")}`, username: "Guesser", deviceFingerprint: makeFingerprint() });
    for (let i = 0; i < 20; i++) expect((await guess([alpha, beta][i % 2]!, i)).status).toBe(200);
    // Each instance saw only ten of them: alone, neither would lock the address out yet.
    const locked = await guess(alpha, 99);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe("Too many attempts. Please wait a moment and try again.");
    expect((await guess(beta, 98)).status).toBe(429);

    // Wrong admin passwords likewise: the fifth locks the name out, and even the right password waits, on both.
    await loginAsAdmin(alpha, "keeper", "right-password-1");
    for (let i = 0; i < 5; i++) expect((await [alpha, beta][i % 2]!.client().post("/api/admin/login", { username: "keeper", password: `wrong-${i}` })).status).toBe(401);
    const refused = await beta.client().post("/api/admin/login", { username: "keeper", password: "right-password-1" });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/);
    expect((await alpha.client().post("/api/admin/login", { username: "keeper", password: "right-password-1" })).status).toBe(429);
  });

  test("the socket census and kick marks: an address's sockets on every instance count, a census Redis lost is written anew, a stopped instance's drop out", async () => {
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const namespace = `dreadcast:census${Date.now().toString(36)}`;
    const a = new RedisCluster(redis!.url, "a", namespace, quiet);
    const b = new RedisCluster(redis!.url, "b", namespace, quiet);
    await a.start();
    await b.start();
    try {
      const address = "198.51.100.7";
      for (let i = 0; i < 60; i++) a.holding(`person-${i % 20}`, address, 1);
      const seenByB = async () => {
        a.send({ k: "wrote" }); // b counts only instances it has heard from lately
        return b.heldElsewhere("person-1", address);
      };
      await eventually(async () => (await seenByB()).address === 60, 3000, "b counting a's sockets");
      expect(await seenByB()).toEqual({ person: 3, address: 60 });
      expect(await a.heldElsewhere("person-1", address)).toEqual({ person: 0, address: 0 });

      // Redis restarted without its data: a's next health ping finds its census gone and writes it anew.
      const admin = new RedisClient(redis!.url);
      await admin.send("FLUSHALL", []);
      expect((await seenByB()).address).toBe(0);
      await eventually(async () => (await seenByB()).address === 60, 5000, "a's census written anew");
      // Closed sockets stop counting, down to nothing at all.
      for (let i = 0; i < 60; i++) a.holding(`person-${i % 20}`, address, -1);
      await eventually(async () => (await seenByB()).address === 0, 3000, "a's sockets closed");
      expect(await admin.send("EXISTS", [`${namespace}:sockets:a`])).toBe(0);
      // Cool-downs kept for instances cut off when they were made: only those still running are kept.
      a.mark("kick", "gone", Date.now() - 1);
      a.mark("kick", "pest", Date.now() + 60_000);
      await eventually(async () => (await admin.send("ZCARD", [`${namespace}:marks:kick`])) === 1, 2000, "the run-out kick pruned");
      expect([...(await b.marks("kick")).keys()]).toEqual(["pest"]);
      // A stopped instance's sockets stop counting at once.
      a.holding("person-1", address, 1);
      await eventually(async () => (await seenByB()).person === 1, 3000, "a's new socket");
      await a.stop();
      expect(await b.heldElsewhere("person-1", address)).toEqual({ person: 0, address: 0 });
      admin.close();
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  test("the periodic jobs run on exactly one instance, and move within seconds when it stops", async () => {
    const { apps } = await startCluster(2);
    const owners = () => apps.filter((app) => app.ctx.cluster.status().owns.includes("mail"));
    await eventually(() => owners().length === 1, 3000, "one mail owner");
    const owner = owners()[0]!;
    for (const job of ["mail", "stats-sampler", "fake-viewers"]) {
      expect(apps.filter((app) => app.ctx.cluster.status().owns.includes(job)).length).toBe(1);
    }
    // The owner stops: the other takes every job over (its lease is handed over on the way out).
    await apps.splice(apps.indexOf(owner), 1)[0]!.close();
    const survivor = apps[0]!;
    await eventually(() => ["mail", "stats-sampler", "fake-viewers"].every((job) => survivor.ctx.cluster.status().owns.includes(job)), 4000, "jobs taken over");
  });

  test("fake viewers set on one instance count the same on every instance", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const admin = await adminOf(beta);
    expect((await admin.post("/api/admin/fake-viewers", { enabled: true, targetViewers: 200 })).status).toBe(200);
    const watch = await connect(alpha, await joinAs(alpha, "Watcher"));
    await eventually(() => lastCount(watch) === 201 && beta.ctx.chat.viewerCount() === 201, 8000, "fake viewers counted on both");
  }, 15_000);

  test("the stream source saved on one instance is relayed by every instance, and a ban there stops the relay here at once", async () => {
    const { apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const origin = await startHlsOrigin();
    try {
      const admin = await adminOf(alpha);
      expect((await admin.put("/api/admin/stream-source", { kind: "hls", originUrl: origin.playlistUrl })).status).toBe(200);
      const viewer = beta.client();
      const code = await beta.ctx.access.issueAccessCode("SKP");
      expect((await enter(viewer, code.code, "Watcher")).status).toBe(200);
      await eventually(async () => (await viewer.get("/api/stream/playback")).body.url === "/api/stream/hls/stream.m3u8", 3000, "beta relays the new source");
      const cookie = [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const segment = () => fetch(beta.url + "/api/stream/hls/segment-0.ts", { headers: { cookie } });
      // Asked twice: the second answer comes from beta's kept verdict.
      expect((await segment()).status).toBe(200);
      expect((await segment()).status).toBe(200);
      await alpha.ctx.chat.ban("Watcher", code.id, "warden");
      await eventually(async () => [401, 403].includes((await segment()).status), 1000, "beta refuses the banned viewer");
      expect((await segment()).status).toBe(401);
    } finally {
      await origin.stop();
    }
  });

  test("junk on the event's channel is ignored: no crash, counts and chat unaffected", async () => {
    const { db, apps } = await startCluster(2);
    const [alpha, beta] = apps as [TestApp, TestApp];
    const ann = await connect(alpha, await joinAs(alpha, "Ann"));
    const bob = await connect(beta, await joinAs(beta, "Bob"));
    await eventually(() => lastCount(ann) === 2 && lastCount(bob) === 2, 5000, "2 viewers");
    const channel = `${clusterNamespace(db.url)}:live`;
    const raw = new RedisClient(redis!.url);
    try {
      for (const junk of [
        "not json",
        "{}",
        JSON.stringify({ f: "mallory", m: { k: "presence", viewers: -5, sockets: 1, fake: null } }),
        JSON.stringify({ f: "mallory", m: { k: "presence", viewers: "lots", sockets: 1, fake: null } }),
        JSON.stringify({ f: "mallory", m: { k: "people", who: null, close: { code: 4001 } } }),
        JSON.stringify({ f: "mallory", m: { k: "event", event: null } }),
        JSON.stringify({ f: "mallory", m: { k: "hearts", total: Number.MAX_VALUE * 2 } }),
        JSON.stringify({ f: "", m: { k: "wrote" } }),
        JSON.stringify({ m: { k: "kick", username: "Ann", until: 9e15 } }),
      ]) {
        await raw.publish(channel, junk);
      }
    } finally {
      raw.close();
    }
    await Bun.sleep(1500);
    expect(lastCount(ann)).toBe(2);
    expect(beta.ctx.chat.isKickedOut({ username: "Ann", userId: null, accessCodeId: null })).toBe(false);
    await say(ann, "still fine");
    await bob.next("chat", (e) => e.message.text === "still fine");
    expect(ann.socket.readyState).toBe(WebSocket.OPEN);
  });
});
