import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_CARD_SUCCESS } from "../../src/contracts/payments.ts";
import { holdDataDir } from "../../src/db/data-dir-hold.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { PostgresStore } from "../../src/db/postgres-store.ts";
import { ADMIN_COOKIE } from "../../src/modules/admin/auth.ts";
import { loginAsAdmin, startTestApp, TestClient, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { buyDemoCode, enter, joinAs, makeFingerprint } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL, type TestDatabase } from "../support/postgres.ts";
import { runCli } from "../support/cli.ts";
import { startServer } from "../support/server.ts";

const run = runCli;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "dreadcast-migrate-test-"));
  dirs.push(dir);
  return dir;
};
const databases: TestDatabase[] = [];
async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase("dreadcast_migrate");
  databases.push(db);
  return db;
}
afterAll(async () => {
  for (const db of databases) await db.drop().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory with a migrated, empty event in it. */
async function emptyEvent(): Promise<string> {
  const dir = tempDir();
  await closeStore(await openStore({ dataDir: dir }));
  return dir;
}

/** One failing run: a single line on stderr, no stack trace, the expected exit code. */
function expectOneLine(result: { stderr: string; code: number }, code: number, message: RegExp) {
  expect(result.code).toBe(code);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).not.toContain("    at ");
  expect(result.stderr).toMatch(message);
}

describe("bad input", () => {
  test("--help lists migrate-data and says backups on PostgreSQL are pg_dump's", async () => {
    const { stdout, code } = await run(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("dreadcast migrate-data --to postgres://");
    expect(stdout).toContain("pg_dump");
  });

  const usage: { name: string; args: string[]; message: RegExp }[] = [
    { name: "no --to", args: [], message: /missing --to; usage: dreadcast migrate-data --to postgres:\/\// },
    { name: "a --to that is not PostgreSQL", args: ["--to", "mysql://root:hunter2@db/event"], message: /--to must be a postgres:\/\/ URL, got 'mysql:'/ },
    { name: "a --to that is not a URL", args: ["--to", "event.db"], message: /--to must be a postgres:\/\/ URL/ },
    { name: "a --to without its value", args: ["--to"], message: /--to needs a value/ },
    { name: "an unknown flag", args: ["--to", "postgres://127.0.0.1/x", "--from", "y"], message: /unknown flag '--from'/ },
    { name: "a stray argument", args: ["postgres://127.0.0.1/x"], message: /unexpected argument 'postgres:\/\/127.0.0.1\/x'/ },
  ];
  for (const c of usage) {
    test(`${c.name} is a usage error: one line, exit 2`, async () => {
      const result = await run(["migrate-data", ...c.args], { DREADCAST_DATA_DIR: tempDir() });
      expectOneLine(result, 2, c.message);
      expect(result.stderr).not.toContain("hunter2");
    });
  }

  test("a missing data directory, a missing database and a file that is not one each fail in one line with exit 1", async () => {
    const to = ["--to", "postgres://postgres@127.0.0.1:1/nowhere"];
    const missingDir = join(tempDir(), "not-here");
    expectOneLine(await run(["migrate-data", ...to, "--data-dir", missingDir]), 1, new RegExp(`no data directory at ${missingDir}`));
    const emptyDir = tempDir();
    expectOneLine(await run(["migrate-data", ...to, "--data-dir", emptyDir]), 1, /no event database in .*dreadcast\.db is missing/);
    writeFileSync(join(emptyDir, "dreadcast.db"), "not a database, just some words that fill a page or two ".repeat(100));
    expectOneLine(await run(["migrate-data", ...to], { DREADCAST_DATA_DIR: emptyDir }), 1, /cannot read .*dreadcast\.db: file is not a database/);
    const other = tempDir();
    new Database(join(other, "dreadcast.db"), { create: true }).run("CREATE TABLE t (x)");
    expectOneLine(await run(["migrate-data", ...to, "--data-dir", other]), 1, /is not a dreadcast database/);
  }, 30_000);

  test("PostgreSQL that does not answer is one line naming host, port and database, never the password; exit 1", async () => {
    const dir = await emptyEvent();
    const result = await run(["migrate-data", "--to", "postgres://dread:hunter2@127.0.0.1:1/event", "--data-dir", dir]);
    expectOneLine(result, 1, /^dreadcast: cannot use PostgreSQL at 127\.0\.0\.1:1\/event: /);
    expect(result.stderr + result.stdout).not.toContain("hunter2");
  });

  test("backup with PostgreSQL configured archives the key, uploads and recordings and names pg_dump for the database, by flag or by environment", async () => {
    const dir = await emptyEvent();
    const passphrase = { DREADCAST_BACKUP_PASSPHRASE: "wormwood lantern cellar 1907" };
    const target = join(dir, "rest.dreadcast");
    const byFlag = await run(["backup", target, "--database-url", "postgres://dread:hunter2@db.example.com:6543/event", "--data-dir", dir], passphrase);
    expect(byFlag.code).toBe(0);
    expect(byFlag.stdout).toContain("database    not in it: the event's data is in PostgreSQL at db.example.com:6543/event; back it up with pg_dump");
    expect(byFlag.stdout).toContain("pg_dump -Fc -h db.example.com -p 6543 -U dread -f FILE.dump event");
    expect(byFlag.stdout + byFlag.stderr).not.toContain("hunter2");
    // Uploaded images are rows of the database: the dump holds them.
    expect(byFlag.stdout).toContain("uploaded images are in it too");
    expect(existsSync(target)).toBe(true);
    const byEnv = await run(["backup", join(dir, "again.dreadcast"), "--data-dir", dir], { ...passphrase, DREADCAST_DATABASE_URL: "postgres://127.0.0.1/event" });
    expect(byEnv.code).toBe(0);
    expect(byEnv.stdout).toContain("PostgreSQL at 127.0.0.1:5432/event; back it up with pg_dump");
    expectOneLine(await run(["backup", "copy.db", "--database-url", "postgres://127.0.0.1/event", "--data-dir", dir]), 2, /backup needs a passphrase/);
    expectOneLine(await run(["backup", "copy.db", "--database-url", "sqlite://x", "--data-dir", dir], passphrase), 2, /--database-url must be a postgres:\/\/ URL/);
  }, 30_000);
});

const hasPostgres = await postgresAvailable();
if (!hasPostgres)
  console.warn(`PostgreSQL not reachable at ${new URL(TEST_POSTGRES_URL).host}: SKIPPING the migrate-data copies (set DREADCAST_TEST_DATABASE_URL or start a server)`);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde]);

/** Every table but the bookkeeping ones, as the migration copies them. */
async function tablesOf(app: TestApp): Promise<string[]> {
  const rows = await app.ctx.store.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
  );
  return rows.map((r) => r.name);
}

type Row = Record<string, unknown>;
/** Rows comparable across engines: numbers for bigints and booleans, in a fixed order. */
function normalised(rows: Row[]): Row[] {
  return rows
    .map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : typeof v === "boolean" ? Number(v) : v])))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

interface Event {
  title: string;
  thumbnailUrl: string;
  buyer: { code: string; cookies: Map<string, string> };
  lines: string[];
  /** One of the owner's recovery codes: their sign-in needs a second factor once the team rows exist. */
  recoveryCode: string;
  /** The owner's session cookie, signed in before the move (the database holds its hash). */
  adminToken: string;
}

/** An event with something in every table, made through the app as its people would. */
async function holdAnEvent(app: TestApp): Promise<Event> {
  const admin = await loginAsAdmin(app);
  const form = new FormData();
  form.append("thumbnail", new Blob([PNG], { type: "image/png" }), "poster.png");
  const thumbnailUrl = (await admin.post("/api/admin/upload-thumbnail", form)).body.thumbnailUrl as string;
  const title = "The Hollow House";
  const saved = await admin.put("/api/admin/livestream-settings", {
    eventTitle: title,
    thumbnailUrl,
    embedUrl: "https://player.example.com/embed/abc",
    donationGoal: 12345,
    isActive: true,
    startDate: "2030-10-31T20:00:00.000Z",
  });
  expect(saved.status).toBe(200);
  expect((await admin.put("/api/admin/chat-rules", { slowModeSeconds: 0, blockedTerms: ["curse"], filterAction: "mask", blockLinks: true })).status).toBe(200);
  // OBS's stream key, made when the admin first looks at the built-in ingest (ingest_key).
  expect((await admin.get("/api/admin/ingest")).status).toBe(200);

  // A pass bought with the demo card, by e-mail (payments, demo intents, a code, the mail queue).
  const buyer = app.client();
  const { accessCode } = await buyDemoCode(buyer, "mara@example.com");
  expect((await enter(buyer, accessCode, "Mara", makeFingerprint(), "mara@example.com")).body.valid).toBe(true);
  const mara = await WsClient.connect(app, buyer);
  const nyx = await joinAs(app, "Nyx");
  const nyxWs = await WsClient.connect(app, nyx);
  const mod = await WsClient.connect(app, await joinAs(app, "Overseer", "MOD"));
  const troll = await joinAs(app, "Troll", "SKP");
  const trollWs = await WsClient.connect(app, troll);

  const lines = ["hello from the crypt", "is anyone else hearing that?"];
  const first = await say(mara, lines[0]!);
  await say(nyxWs, lines[1]!);
  mod.send({ type: "pin", messageId: first.id });
  await mara.next("message_updated", (e) => e.message.isPinned);
  mara.send({ type: "send_heart" });
  await mara.next("hearts", (e) => e.count >= 1);

  // A donation (a payment, the donation, its chat line).
  const intent = (await buyer.post("/api/create-donation-intent", { amount: 2000 })).body;
  await buyer.post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: DEMO_CARD_SUCCESS });
  mara.send({ type: "donation", paymentIntentId: intent.paymentIntentId });
  await mara.next("donation_update", (e) => e.current === 2000);

  // Moderation: a timeout, a ban with a reason, a panel-made moderator, the log of it all.
  mod.send({ type: "timeout_user", username: "Nyx", seconds: 600 });
  await nyxWs.next("chat_cooldown");
  mod.send({ type: "ban_user", targetUsername: "Troll", reason: "spoilers" });
  await trollWs.closed;
  const nyxId = (await app.ctx.store.get<{ id: number }>("SELECT id FROM users WHERE username = ?", "Nyx"))!.id;
  expect((await admin.post(`/api/admin/users/${nyxId}/moderator`, { isModerator: true })).status).toBe(200);

  // A refund of the troll's pass from the panel.
  const trollIntent = (await app.ctx.store.get<{ intent_id: string }>(
    "SELECT p.intent_id FROM payments p JOIN access_codes c ON c.payment_id = p.id WHERE c.code = ?",
    troll.accessCode,
  ))!.intent_id;
  expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: trollIntent })).status).toBe(200);

  // What only Stripe's webhooks write, and a stream source, straight through the store.
  const now = Date.now();
  await app.ctx.store.run("INSERT INTO webhook_events (id, type, received_at) VALUES (?, ?, ?)", "evt_1", "charge.refunded", now);
  await app.ctx.store.run("INSERT INTO charge_refunds (intent_id, amount_refunded, updated_at) VALUES (?, ?, ?)", intent.paymentIntentId, 0, now);
  await app.ctx.store.run(
    "INSERT INTO disputes (id, intent_id, amount, status, closed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    "dp_1",
    intent.paymentIntentId,
    2000,
    "won",
    1,
    now,
    now,
  );
  await app.ctx.store.run(
    "UPDATE stream_source SET kind = 'hls', fields = ?, watermark = 1, updated_at = ? WHERE id = 1",
    JSON.stringify({ originUrl: "https://origin.example.com/live.m3u8" }),
    now,
  );

  for (const ws of [mara, nyxWs, mod]) ws.close();
  // Everything the sockets set off is stored before the copy is taken.
  await eventually(async () => (await app.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM moderation_log WHERE action = 'ban'"))!.n === 1);
  // A kept recording of a publish session, with one segment (the replay).
  const recording = (await app.ctx.store.get<{ id: number }>(
    "INSERT INTO recordings (dir, title, state, started_at, ended_at, duration_ms, bytes, width, height) VALUES ('night-1', 'Night one', 'complete', ?, ?, 2000, 1234, 640, 360) RETURNING id",
    Date.now() - 5000,
    Date.now(),
  ))!;
  await app.ctx.store.run(
    "INSERT INTO recording_segments (recording_id, seq, file, init_file, start_ms, duration_ms, program_date_time, bytes) VALUES (?, 0, 'seg-0.m4s', 'init-0.mp4', 0, 2000, ?, 1234)",
    recording.id,
    Date.now() - 5000,
  );
  // A second sign-in of the owner, ended from the first (admin_session_ends keeps why, for that browser).
  await loginAsAdmin(app);
  const newest = (await app.ctx.store.get<{ id: string }>("SELECT id FROM admin_sessions ORDER BY created_at DESC LIMIT 1"))!.id;
  expect(await app.ctx.admins.endSessions("ended-elsewhere", "id = ?", newest)).toBe(1);
  // Last, as it changes how the owner signs in — the team: an invite, recovery codes, a security key and a sign-in waiting for its second factor.
  const owner = (await app.ctx.admins.findById((await app.ctx.store.get<{ id: number }>("SELECT id FROM admins ORDER BY id LIMIT 1"))!.id))!;
  await app.ctx.adminTeam.team.invite("ally@example.com", "support", owner);
  const [recoveryCode] = await app.ctx.adminTeam.twoFactor.replaceRecoveryCodes(owner.id);
  await app.ctx.adminTeam.twoFactor.openChallenge(owner.id);
  await app.ctx.store.run(
    "INSERT INTO admin_passkeys (id, admin_id, public_key, counter, transports, name, created_at) VALUES ('key-1', ?, 'cHVibGlj', 0, '[]', 'Desk key', ?)",
    owner.id,
    Date.now(),
  );
  return {
    title,
    thumbnailUrl,
    buyer: { code: accessCode, cookies: new Map(buyer.cookies) },
    lines,
    recoveryCode: recoveryCode!,
    adminToken: admin.cookies.get(ADMIN_COOKIE)!,
  };
}

describe.skipIf(!hasPostgres)("migrate-data into PostgreSQL", () => {
  test("images uploaded as files before they were kept in the database go into PostgreSQL too", async () => {
    const dataDir = tempDir();
    const target = await freshDatabase();
    const app = await startTestApp({ dataDir, databaseUrl: null });
    await app.close();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0, 1, 2, 3, 4]);
    const name = `${new Bun.CryptoHasher("sha256").update(png).digest("hex").slice(0, 32)}.png`;
    mkdirSync(join(dataDir, "uploads"), { recursive: true });
    writeFileSync(join(dataDir, "uploads", name), png);
    writeFileSync(join(dataDir, "uploads", "notes.txt"), "not an upload");
    const result = await run(["migrate-data", "--to", target.url, "--data-dir", dataDir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`uploads: images are in the database, 1 uploaded file from ${join(dataDir, "uploads")} among them`);
    const other = await startTestApp({ dataDir: tempDir(), databaseUrl: target.url });
    try {
      const served = await fetch(`${other.url}/uploads/${name}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    } finally {
      await other.close();
    }
  }, 30_000);

  test("copies every table with its ids; a server on PostgreSQL then serves the same event; a second copy is refused", async () => {
    const dataDir = tempDir();
    const target = await freshDatabase();
    // A server that merely started on the new database (and sampled its stats) leaves it empty for the copy.
    const idle = await startTestApp({ dataDir: tempDir(), databaseUrl: target.url });
    await idle.close();

    const app = await startTestApp({ dataDir, databaseUrl: null });
    let event: Event;
    const source = new Map<string, Row[]>();
    let tables: string[];
    try {
      event = await holdAnEvent(app);
      tables = await tablesOf(app);
      for (const table of tables) source.set(table, normalised(await app.ctx.store.all<Row>(`SELECT * FROM ${table}`)));
      const empty = tables.filter((t) => source.get(t)!.length === 0);
      expect(empty).toEqual([]);

      // Copied while the app is still open (its last writes still in the WAL), with the data directory held as a server holds it.
      const hold = holdDataDir(dataDir);
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run(["migrate-data", "--to", target.url, "--data-dir", dataDir]);
      } finally {
        hold.release();
      }
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const out = result.stdout.trim().split("\n");
      for (const table of tables) expect(out).toContain(`  ${table.padEnd(Math.max(...tables.map((t) => t.length)) + 2)}${String(source.get(table)!.length).padStart(8)}`);
      expect(result.stdout).toContain(`note: a server is running on ${dataDir}`);
      expect(result.stdout).toContain("uploads: images are in the database");
      expect(out.at(-1)).toMatch(new RegExp(`^done: ${tables.length} tables, \\d+ rows, every count matches; start dreadcast with --database-url `));
      // Without the data directory beside the database, the key and the recordings would be left behind.
      expect(out.at(-1)).toContain(` --data-dir ${dataDir} (it keeps the key that opens the two factors and the stream key, and the recordings;`);
    } finally {
      await app.close();
    }

    // Row for row the same, ids included.
    const pg = PostgresStore.connect(target.url, { max: 1 });
    try {
      for (const table of tables) {
        const copied = normalised(await pg.all<Row>(`SELECT * FROM ${table}`));
        expect({ table, rows: copied }).toEqual({ table, rows: source.get(table)! });
      }
    } finally {
      await pg.close();
    }

    // The real executable on PostgreSQL serves the migrated event.
    const server = await startServer(dataDir, ["--database-url", target.url], { until: "data: " });
    try {
      expect(server.output()).toContain("data: PostgreSQL at ");
      expect(server.output()).not.toContain("create the first one");
      const admin = new TestClient(server.url);
      // The owner's second factor came across too: the password alone no longer signs in.
      expect((await admin.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).body.secondFactor).toEqual(["webauthn", "recovery"]);
      expect((await admin.post("/api/admin/login/second-factor", { recoveryCode: event.recoveryCode })).status).toBe(200);
      const settings = (await admin.get("/api/livestream-settings")).body;
      expect(settings).toMatchObject({ eventTitle: event.title, thumbnailUrl: event.thumbnailUrl, currentDonation: 2000, donationGoal: 12345 });
      const poster = await fetch(server.url + event.thumbnailUrl);
      expect(poster.status).toBe(200);
      expect(new Uint8Array(await poster.arrayBuffer())).toEqual(PNG);
      expect((await admin.get("/api/admin/banned-users")).body.bannedUsers).toMatchObject([{ username: "Troll", reason: "spoilers" }]);
      // The owner's session from before the move opens the panel still: its hash was copied, and its cookie matches it.
      const before = new TestClient(server.url);
      before.cookies.set(ADMIN_COOKIE, event.adminToken);
      expect((await before.get("/api/admin/profile")).body.username).toBe("warden");

      // The buyer's session carries over: the chat history is there, pinned line included.
      const buyer = new TestClient(server.url);
      for (const [k, v] of event.buyer.cookies) buyer.cookies.set(k, v);
      const ws = await WsClient.connect(server, buyer);
      const history = ws.of("chatHistory")[0]!.messages;
      expect(history.map((m) => m.text)).toEqual(expect.arrayContaining(event.lines));
      expect(history.find((m) => m.text === event.lines[0])).toMatchObject({ username: "Mara", isPinned: true });
      expect(history.some((m) => m.type === "donation" && m.donation === 20)).toBe(true);
      await say(ws, "still here after the move");
      ws.close();

      // New rows take ids after the copied ones (the identities were moved on).
      const newcomer = new TestClient(server.url);
      const { accessCode } = await buyDemoCode(newcomer);
      expect((await enter(newcomer, accessCode, "Newcomer")).body.valid).toBe(true);
      expect((await admin.post("/api/admin/generate-access-code", { kind: "MOD" })).status).toBe(201);
    } finally {
      await server.kill("SIGTERM");
      expect((await server.exited).code).toBe(0);
    }

    const after = PostgresStore.connect(target.url, { max: 1 });
    try {
      const maxId = (table: string) => Math.max(...source.get(table)!.map((r) => r.id as number));
      expect((await after.get<{ id: number }>("SELECT id FROM users WHERE username = 'Newcomer'"))!.id).toBeGreaterThan(maxId("users"));
      expect((await after.get<{ n: number }>("SELECT COUNT(*) AS n FROM access_codes WHERE id > ?", maxId("access_codes")))!.n).toBe(2);
      expect((await after.get<{ n: number }>("SELECT COUNT(*) AS n FROM payments WHERE id > ?", maxId("payments")))!.n).toBe(1);
    } finally {
      await after.close();
    }

    // Into the now non-empty database again: refused, nothing changed.
    const again = await run(["migrate-data", "--to", target.url, "--data-dir", dataDir]);
    expectOneLine(
      again,
      1,
      /PostgreSQL at 127\.0\.0\.1:\d+\/dreadcast_migrate_\w+ already holds an event \(1 row in admins, .*\); migrate-data copies only into an empty database/,
    );
    expect(again.stdout).toBe("");
  }, 60_000);

  test("a database whose settings were changed counts as holding an event; nothing is copied into it", async () => {
    const target = await freshDatabase();
    const pg = await openStore({ dataDir: tempDir(), databaseUrl: target.url });
    try {
      await pg.run("UPDATE livestream_settings SET event_title = ?, updated_at = ? WHERE id = 1", "Someone else's night", Date.now() + 1000);
    } finally {
      await pg.close();
    }
    const dir = tempDir();
    const store = await openStore({ dataDir: dir });
    await store.run("INSERT INTO admins (username, email, password_hash, created_at) VALUES ('warden', 'w@example.com', 'x', 1)");
    await closeStore(store);
    expectOneLine(await run(["migrate-data", "--to", target.url, "--data-dir", dir]), 1, /already holds an event \(livestream_settings changed\)/);
    const check = PostgresStore.connect(target.url, { max: 1 });
    try {
      expect(await check.get("SELECT COUNT(*) AS n FROM admins")).toEqual({ n: 0 });
      expect(await check.get("SELECT event_title FROM livestream_settings")).toEqual({ event_title: "Someone else's night" });
    } finally {
      await check.close();
    }
  });
});
