import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUSY_MESSAGE } from "../../src/lib/errors.ts";
import { loginAsAdmin, startTestApp, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { buyDemoCode, enter, joinAs } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";
import { recordingLogger } from "../support/logger.ts";
import { TEST_ENGINE } from "../support/postgres.ts";

/**
 * The disk under the SQLite file fills up while the event runs (a home server's logs, a full VPS). SQLite
 * then refuses every write (SQLITE_FULL) and rolls it back whole; the app answers such requests 503 and
 * says once in its log why, keeps serving what only reads, and writes again as soon as there is room.
 * The disk is a real one: a small tmpfs mounted for the test as the data directory, filled with a file
 * (mounting needs root, as in CI; elsewhere the test says it skipped).
 */
const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-full-disk-"));
const mounted = TEST_ENGINE === "sqlite" && Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", dataDir]).exitCode === 0;
if (!mounted && TEST_ENGINE === "sqlite") console.warn("cannot mount a tmpfs (not root?): SKIPPED the test of a full disk under the SQLite file");

describe.skipIf(!mounted)("the disk under the SQLite file full", () => {
  let app: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ dataDir, databaseUrl: null }, { log: recordingLogger(logged) });
  });
  afterAll(async () => {
    try {
      await app?.close();
    } finally {
      Bun.spawnSync(["umount", dataDir]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const filler = join(dataDir, "filler");
  /** Fills the disk to its last byte with another file. */
  function fillDisk(): void {
    // 64 KiB at a time while it fits, then ever smaller pieces, until not even a byte does.
    for (let size = 64 * 1024; size >= 1;) {
      try {
        appendFileSync(filler, new Uint8Array(size));
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOSPC") throw error;
        size = Math.floor(size / 2);
      }
    }
  }

  function freeDisk(): void {
    rmSync(filler, { force: true });
  }

  test("writes are answered 503 and said once, reads go on, the chat refuses lines to their sender alone; all writes again once there is room", async () => {
    const admin = await loginAsAdmin(app);
    const alice = await joinAs(app, "Alice");
    const bram = await joinAs(app, "Bram");
    const aliceWs = await WsClient.connect(app, alice);
    const bramWs = await WsClient.connect(app, bram);
    const visitor = app.client();
    const bought = await buyDemoCode(visitor);
    const before = await app.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM viewer_sessions");

    fillDisk();
    // Writes: entering a code (a new session), a purchase, a settings change — 503 with Retry-After, nothing half-made.
    const entered = await enter(visitor, bought.accessCode, "Cassia");
    expect({ status: entered.status, body: entered.body }).toEqual({ status: 503, body: { error: BUSY_MESSAGE } });
    expect(Number(entered.headers.get("retry-after"))).toBeGreaterThan(0);
    const intent = await app.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" });
    expect(intent.status).toBe(503);
    const settings = (await admin.get("/api/admin/livestream-settings")).body;
    expect((await admin.put("/api/admin/livestream-settings", { ...settings, title: "The Hollow Hour" })).status).toBe(503);
    expect(await app.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM viewer_sessions")).toEqual(before);

    // Reads: a viewer's settings, the health check.
    expect((await bram.get("/api/livestream-settings")).status).toBe(200);
    expect((await app.client().get("/healthz")).status).toBe(200);

    // The chat: a line refused to its sender, never shown; hearts still count; the sockets stay.
    expect(await aliceWs.expectError({ type: "chat_message", text: "why is it so quiet" })).toBe(BUSY_MESSAGE);
    const hearts = app.ctx.chat.heartCount() + 2;
    aliceWs.send({ type: "send_heart" });
    aliceWs.send({ type: "send_heart" });
    await bramWs.next("hearts", (e) => e.count === hearts);
    expect(bramWs.lines().map((l) => l.text)).not.toContain("why is it so quiet");
    expect(aliceWs.socket.readyState).toBe(WebSocket.OPEN);

    // Said once, with the reason, and never as an unhandled error.
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
    await eventually(() => logged.includes("warn: heart count not saved: database or disk is full"), 5000, "the hearts' failed save said");
    expect(logged.filter((line) => line.startsWith("warn: database unavailable, requests that need it are answered 503"))).toEqual([
      "warn: database unavailable, requests that need it are answered 503: database or disk is full",
    ]);

    // Room again: the same code goes in, the settings save, the chat carries lines.
    freeDisk();
    expect((await enter(visitor, bought.accessCode, "Cassia")).body).toMatchObject({ valid: true });
    expect((await admin.put("/api/admin/livestream-settings", { ...settings, title: "The Hollow Hour" })).status).toBe(200);
    await say(aliceWs, "there you are");
    await bramWs.next("chat", (e) => e.message.text === "there you are");
    // The hearts counted meanwhile are saved, and that is said.
    await eventually(async () => (await app.ctx.store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))?.value === hearts, 5000, "hearts saved");
    await eventually(() => logged.some((line) => line.startsWith("info: heart count saved again")), 3000, "the hearts' save said again");
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
    aliceWs.close();
    bramWs.close();
  }, 30_000);
});
