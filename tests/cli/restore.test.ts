import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Encrypter } from "age-encryption";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as tar from "tar-stream";
import { SCHEMA_VERSION } from "../../src/db/migrations.ts";
import { publish } from "../support/rtmp.ts";
import { mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";
import { ingestWithKey, LEGAL_LINKS, TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { runCli } from "../support/cli.ts";
import { FAKE_STRIPE_WEBHOOK_SECRET, fakeStripeFlags, startFakeStripe } from "../support/fake-stripe.mjs";
import { freePort } from "../support/free-port.mjs";
import { databaseForDataDir, TEST_ENGINE } from "../support/postgres.ts";
import { startTestS3 } from "../support/s3.ts";
import { startServer } from "../support/server.ts";
import { totp } from "../support/totp.ts";
import { buyDemoCode, enter, makeFingerprint } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";

// A backup and a restore each derive the passphrase's key with scrypt (a second or two), and the drill
// starts the server twice.
setDefaultTimeout(90_000);

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const POSTER = resolve(import.meta.dir, "../fixtures/images/poster.jpg");
const onPostgres = TEST_ENGINE === "postgres";
const tempDir = () => mkdtempSync(join(tmpdir(), "dreadcast-restore-"));
const PASSPHRASE = "wormwood lantern cellar 1907";

function passphraseFile(dir: string, text = PASSPHRASE): string {
  const file = join(dir, "passphrase");
  writeFileSync(file, `${text}\n`, { mode: 0o600 });
  return file;
}

/** The database flags for this engine: on PostgreSQL, the data directory's own database. */
const dbArgs = async (dir: string): Promise<string[]> => (onPostgres ? ["--database-url", await databaseForDataDir(dir)] : []);

/** Runs the command line under a umask of 022, as a shell would, with only PATH and HOME. */
async function runWithUmask(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const proc = Bun.spawn(["sh", "-c", 'umask 022; exec "$0" "$@"', process.execPath, MAIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

/** Every file and folder under `dir` with its mode, for "nothing changed". */
function snapshotOf(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort().map((name) => {
    const path = join(dir, name);
    const s = statSync(path);
    return `${name} ${s.isDirectory() ? "dir" : createHash("sha256").update(readFileSync(path)).digest("hex")}`;
  });
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("the restore drill", () => {
  test("a live event backed up on a timer into a bucket, kill -9, the data directory gone, restored from the bucket onto a new one: two factors, the stream key, the passes, the chat, the upload and the replay all work", async () => {
    const s3 = await startTestS3("backups");
    const work = tempDir();
    const dataDir = join(work, "data");
    const pass = passphraseFile(work);
    const created = await runWithUmask([
      "admin",
      "create",
      "--username",
      "warden",
      "--email",
      "w@example.com",
      "--password",
      "s3cret-pass",
      "--data-dir",
      dataDir,
      ...(await dbArgs(dataDir)),
    ]);
    expect(created.code).toBe(0);
    const { s3Endpoint, s3Region, s3AccessKeyId, s3SecretAccessKey } = s3.config("x");
    const bucket = ["--s3-endpoint", s3Endpoint, "--s3-region", s3Region, "--s3-access-key-id", s3AccessKeyId, "--s3-secret-access-key", s3SecretAccessKey];
    const schedule = ["--backup-every", "2s", "--backup-to", "s3://backups/night", "--backup-keep", "3", "--backup-passphrase-file", pass, ...bucket];
    const server = await startServer(dataDir, ["--rtmp-port", String(await freePort()), ...schedule], { env: { ...process.env, NODE_ENV: "production" }, until: "backups: " });
    const taken = () =>
      server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("backup taken: ")).length;
    const admin = new TestClient(server.url);
    let secret: string;
    let streamKey: string;
    let poster: string;
    const viewers: { code: string; username: string; fingerprint: ReturnType<typeof makeFingerprint> }[] = [];
    let recordingSeconds = 0;
    try {
      expect((await admin.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
      secret = (await admin.post("/api/admin/2fa/totp/setup")).body.secret;
      expect((await admin.post("/api/admin/2fa/totp/enable", { code: totp(secret) })).status).toBe(200);
      expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
      expect((await admin.put("/api/admin/livestream-settings", { isActive: true })).status).toBe(200);
      const ingest = await ingestWithKey(admin);
      streamKey = ingest.streamKey;
      const form = new FormData();
      form.set("thumbnail", new Blob([readFileSync(POSTER)], { type: "image/jpeg" }), "poster.jpg");
      const upload = await admin.post("/api/admin/upload-thumbnail", form);
      expect(upload.status).toBe(200);
      poster = JSON.stringify(upload.body).match(/\/uploads\/[0-9a-f]{32}\.jpg/)![0];
      for (let i = 0; i < 3; i++) {
        const buyer = new TestClient(server.url);
        const { accessCode } = await buyDemoCode(buyer);
        const fingerprint = makeFingerprint();
        expect((await enter(buyer, accessCode, `mourner${i}`, fingerprint)).body.valid).toBe(true);
        viewers.push({ code: accessCode, username: `mourner${i}`, fingerprint });
        if (i === 0) {
          const ws = await WsClient.connect(server, buyer);
          await say(ws, "the cellar door is open");
          ws.close();
        }
      }
      // OBS live for a few seconds: the night's recording.
      if (mediaToolsMissing) console.warn(`the drill's recording and replay: SKIPPED (${mediaToolsMissing})`);
      else {
        expect((await publish(`${ingest.rtmpUrl}/${streamKey}`, { seconds: 4 }).done).code).toBe(0);
        const recording = await eventually(
          async () => ((await admin.get("/api/admin/recordings")).body.recordings as { state: string; durationS: number }[]).find((r) => r.state === "complete") ?? null,
          15_000,
          "the recording closed",
        );
        recordingSeconds = recording.durationS;
        expect(recordingSeconds).toBeGreaterThan(2);
      }
      expect(mode(join(dataDir, "secrets.key"))).toBe("600");
      if (!onPostgres) expect(mode(join(dataDir, "dreadcast.db"))).toBe("600");
      if (!onPostgres) expect(mode(dataDir)).toBe("700");

      // By hand too: the operator's first try forgets the passphrase and is refused, nothing written.
      const archive = join(work, "by-hand.dreadcast");
      const forgot = await runWithUmask(["backup", archive, "--data-dir", dataDir, ...(await dbArgs(dataDir))]);
      expect(forgot.code).toBe(2);
      expect(forgot.stderr).toContain("backup needs a passphrase");
      expect(existsSync(archive)).toBe(false);
      const backup = await runWithUmask(["backup", archive, "--data-dir", dataDir, "--passphrase-file", pass, ...(await dbArgs(dataDir))]);
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      expect(backup.stdout).toContain(`backup written to ${archive} (`);
      expect(backup.stdout).toContain("key         secrets.key");
      expect(backup.stdout).toMatch(mediaToolsMissing ? /recordings {2}0 file\(s\)/ : /recordings {2}[1-9]\d* file\(s\)/);
      expect(backup.stdout).toContain(onPostgres ? "database    not in it: the event's data is in PostgreSQL" : "database    dreadcast.db");
      expect(mode(archive)).toBe("600");

      // Two scheduled backups begun after all of it, so the newest holds everything above.
      const before = taken();
      await eventually(() => taken() >= before + 2 || null, 30_000, "two more scheduled backups");
    } finally {
      await server.kill("SIGKILL");
    }
    // On PostgreSQL the database has its own dump, restored beside the archive.
    const databaseMarker = join(dataDir, ".test-database-url");
    const database = onPostgres ? readFileSync(databaseMarker, "utf8").trim() : null;
    const dump = join(work, "night.dump");
    if (database) expect(Bun.spawnSync(["pg_dump", "-Fc", "-f", dump, database]).exitCode).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });

    // The newest archive in the bucket: the key is never in it in the clear.
    const keys = ((await s3.client.list({ prefix: "night/" })).contents ?? []).map((c) => c.key).sort();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys.length).toBeLessThanOrEqual(4);
    const archive = join(work, "from-the-bucket.dreadcast");
    writeFileSync(archive, new Uint8Array(await s3.client.file(keys.at(-1)!).arrayBuffer()));
    await s3.close();
    const restoredDir = join(work, "restored");
    const restore = await runWithUmask(["restore", archive, "--data-dir", restoredDir, "--passphrase-file", pass]);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`restored ${archive} into ${restoredDir}`);
    expect(restore.stdout).toContain("every checksum matches");
    expect(restore.stdout).toContain(onPostgres ? "restore it with pg_restore" : "database    dreadcast.db (integrity check ok)");
    const key32 = readFileSync(join(restoredDir, "secrets.key"));
    expect(readFileSync(archive).includes(key32)).toBe(false);
    expect(mode(join(restoredDir, "secrets.key"))).toBe("600");
    expect(readdirSync(restoredDir).filter((n) => n.startsWith(".restoring-"))).toEqual([]);
    if (database) {
      writeFileSync(join(restoredDir, ".test-database-url"), database);
      expect(Bun.spawnSync(["pg_restore", "--clean", "--if-exists", "--no-owner", "-d", database, dump]).exitCode).toBe(0);
    }

    const again = await startServer(restoredDir, ["--rtmp-port", String(await freePort())]);
    try {
      const warden = new TestClient(again.url);
      const login = await warden.post("/api/admin/login", { username: "warden", password: "s3cret-pass" });
      expect(login.body.secondFactor).toContain("totp");
      expect((await warden.post("/api/admin/login/second-factor", { code: totp(secret, Date.now(), 1) })).status).toBe(200);
      expect((await warden.post("/api/admin/ingest/reveal-key")).body).toEqual({ streamKey });
      const watchers: TestClient[] = [];
      for (const viewer of viewers) {
        const client = new TestClient(again.url);
        const res = await enter(client, viewer.code, viewer.username, viewer.fingerprint);
        expect(res.body.valid).toBe(true);
        watchers.push(client);
      }
      const image = await fetch(again.url + poster);
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(readFileSync(POSTER))).toBe(true);
      const ws = await WsClient.connect(again, watchers[1]!);
      const history = ws.events.find((e) => e.type === "chatHistory") as { messages: { text: string }[] } | undefined;
      expect(history?.messages.map((m) => m.text)).toContain("the cellar door is open");
      ws.close();

      if (!mediaToolsMissing) {
        // The night is over: the replay plays what was recorded before the box died, and its chat.
        expect((await warden.post("/api/admin/event/end", {})).status).toBe(200);
        const watcher = watchers[2]!;
        const playback = (await watcher.get("/api/stream/playback")).body;
        expect(playback).toMatchObject({ kind: "replay", url: "/api/stream/replay/index.m3u8" });
        expect(playback.duration).toBeCloseTo(recordingSeconds, 1);
        const chat = (await watcher.get("/api/stream/replay-chat")).body;
        expect(chat.lines.map((l: { text: string }) => l.text)).toContain("the cellar door is open");
        const get = (path: string) => fetch(again.url + path, { headers: { cookie: [...watcher.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
        const playlist = await (await get(playback.url)).text();
        expect(playlist).toContain("#EXT-X-ENDLIST");
        const parts = [/URI="([^"]+)"/.exec(playlist)![1]!, ...playlist.split("\n").filter((l) => l && !l.startsWith("#"))];
        const bytes: Uint8Array[] = [];
        for (const part of parts) {
          const res = await get(`/api/stream/replay/${part}`);
          expect({ part, status: res.status }).toEqual({ part, status: 200 });
          bytes.push(new Uint8Array(await res.arrayBuffer()));
        }
        const played = join(work, "played.mp4");
        writeFileSync(played, Buffer.concat(bytes));
        const probed = probeFrames(played);
        expect(probed.errors).toBe("");
        expect(probed.frames.filter((f) => f.media_type === "video").length).toBeGreaterThan(60);
      }
    } finally {
      await again.kill("SIGTERM");
    }
  }, 180_000);
});

/** An archive written with the same libraries as dreadcast's, holding what `entries` say: for the cases a real backup never makes. */
async function craftArchive(file: string, entries: { name: string; body: string | Buffer }[], passphrase = PASSPHRASE): Promise<void> {
  const pack = tar.pack();
  for (const entry of entries) await new Promise<void>((done, fail) => pack.entry({ name: entry.name }, entry.body, (e) => (e ? fail(e) : done())));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase);
  // A cheaper scrypt than a real backup's: the restore reads the work factor from the file.
  encrypter.setScryptWorkFactor(12);
  writeFileSync(file, await encrypter.encrypt(new Uint8Array(Buffer.concat(chunks))));
}

const head = (over: Record<string, unknown> = {}) => ({
  format: "dreadcast-backup",
  formatVersion: 1,
  version: "0.1.0",
  schema: SCHEMA_VERSION,
  engine: "postgres",
  createdAt: new Date().toISOString(),
  key: "included",
  recordings: "files",
  ...over,
});
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe.skipIf(onPostgres)("bad archives are refused and change nothing", () => {
  test("wrong passphrase, cut short, not a backup, a checksum off, a newer version, a path out of the directory: one line each, exit non-zero, the data directory as it was", async () => {
    const work = tempDir();
    const source = join(work, "source");
    expect((await runCli(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret-pass", "--data-dir", source])).code).toBe(0);
    const pass = passphraseFile(work);
    const good = join(work, "good.dreadcast");
    expect((await runCli(["backup", good, "--data-dir", source, "--passphrase-file", pass])).code).toBe(0);

    // The target already holds an event: whatever is refused leaves it untouched.
    const target = join(work, "target");
    expect((await runCli(["admin", "create", "--username", "keeper", "--email", "k@example.com", "--password", "s3cret-pass", "--data-dir", target])).code).toBe(0);
    writeFileSync(join(target, "secrets.key"), Buffer.alloc(32, 1));

    const cut = join(work, "cut.dreadcast");
    writeFileSync(cut, readFileSync(good));
    truncateSync(cut, statSync(good).size - 100);
    const notOne = join(work, "notes.txt");
    writeFileSync(notOne, "just some notes\n");
    const liar = join(work, "liar.dreadcast");
    await craftArchive(liar, [
      { name: "dreadcast-backup.json", body: JSON.stringify(head()) },
      { name: "secrets.key", body: "k".repeat(32) },
      { name: "manifest.json", body: JSON.stringify({ ...head(), files: [{ path: "secrets.key", size: 32, sha256: sha("x".repeat(32)) }] }) },
    ]);
    const newer = join(work, "newer.dreadcast");
    await craftArchive(newer, [{ name: "dreadcast-backup.json", body: JSON.stringify(head({ version: "9.0.0", schema: SCHEMA_VERSION + 1 })) }]);
    const escape = join(work, "escape.dreadcast");
    await craftArchive(escape, [
      { name: "dreadcast-backup.json", body: JSON.stringify(head()) },
      { name: "../outside", body: "x" },
    ]);
    const headless = join(work, "headless.dreadcast");
    await craftArchive(headless, [{ name: "dreadcast-backup.json", body: JSON.stringify(head()) }]);

    const wrongPass = passphraseFile(mkdtempSync(join(work, "w-")), "not the passphrase");
    const cases: { name: string; archive: string; pass?: string; code: number; message: RegExp }[] = [
      { name: "wrong passphrase", archive: good, pass: wrongPass, code: 1, message: /wrong passphrase/ },
      { name: "cut short", archive: cut, code: 1, message: /is damaged or cut short/ },
      { name: "not a backup", archive: notOne, code: 1, message: /is not a dreadcast backup/ },
      { name: "a checksum off", archive: liar, code: 1, message: /secrets\.key in .* does not match its checksum; nothing was restored/ },
      { name: "a newer version", archive: newer, code: 2, message: /written by a newer dreadcast \(9\.0\.0, schema \d+; this build is .*\): restore it with that version/ },
      { name: "a path out of the directory", archive: escape, code: 1, message: /holds an entry no backup has/ },
      { name: "no manifest", archive: headless, code: 1, message: /cut short \(no manifest at its end\)/ },
      { name: "no such file", archive: join(work, "missing.dreadcast"), code: 1, message: /no backup at/ },
    ];
    const before = snapshotOf(target);
    for (const c of cases) {
      const result = await runCli(["restore", c.archive, "--data-dir", target, "--passphrase-file", c.pass ?? pass]);
      expect({ name: c.name, code: result.code }).toEqual({ name: c.name, code: c.code });
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(c.message);
      expect(snapshotOf(target).filter((n) => !n.startsWith("serve."))).toEqual(before.filter((n) => !n.startsWith("serve.")));
    }
    expect(existsSync(join(work, "outside"))).toBe(false);
    // Refused into a directory that was not there: it is not there after.
    const fresh = join(work, "fresh");
    expect((await runCli(["restore", good, "--data-dir", fresh, "--passphrase-file", wrongPass])).code).toBe(1);
    expect(existsSync(fresh)).toBe(false);
    const none = await runCli(["restore", good, "--data-dir", target]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("restore needs the passphrase");
  });

  test("restore refuses a data directory a server holds, and sets a stale WAL aside with what was there", async () => {
    const work = tempDir();
    const source = join(work, "source");
    expect((await runCli(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret-pass", "--data-dir", source])).code).toBe(0);
    const pass = passphraseFile(work);
    const archive = join(work, "night.dreadcast");
    expect((await runCli(["backup", archive, "--data-dir", source, "--passphrase-file", pass])).code).toBe(0);

    const target = join(work, "target");
    const server = await startServer(target);
    const held = await runCli(["restore", archive, "--data-dir", target, "--passphrase-file", pass]);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(`the data directory ${target} is in use by another dreadcast (pid ${server.pid})`);
    expect(held.stderr).toContain("nothing was restored");
    // Killed: its WAL stays beside the database, as after a crash.
    await server.kill("SIGKILL");
    writeFileSync(join(target, "dreadcast.db-wal"), Buffer.alloc(4096, 9));

    const restored = await runCli(["restore", archive, "--data-dir", target, "--passphrase-file", pass]);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/set aside: what .* held is in .*before-restore-\S+ \(with dreadcast\.db-wal(, dreadcast\.db-shm)? from a server that did not stop cleanly/);
    expect(existsSync(join(target, "dreadcast.db-wal"))).toBe(false);
    const aside = readdirSync(target).find((n) => n.startsWith("before-restore-"))!;
    expect(existsSync(join(target, aside, "dreadcast.db"))).toBe(true);
    expect(existsSync(join(target, aside, "dreadcast.db-wal"))).toBe(true);
    const db = new Database(join(target, "dreadcast.db"), { readonly: true });
    expect(db.query("SELECT username FROM admins").all()).toEqual([{ username: "warden" }]);
    db.close();
    const again = await startServer(target);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    await again.kill("SIGTERM");
  });

  test("--without-key leaves the key out and says it is the operator's to bring; the restore says where it goes", async () => {
    const work = tempDir();
    const source = join(work, "source");
    expect((await runCli(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret-pass", "--data-dir", source])).code).toBe(0);
    writeFileSync(join(source, "secrets.key"), Buffer.alloc(32, 3), { mode: 0o600 });
    const archive = join(work, "night.dreadcast");
    const backup = await runCli(["backup", archive, "--data-dir", source, "--without-key"], { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("key         not in it (--without-key): keep your copy of the key");
    const target = join(work, "target");
    const restore = await runCli(["restore", archive, "--data-dir", target], { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`start with --secret-key, or put your copy at ${join(target, "secrets.key")}`);
    expect(existsSync(join(target, "secrets.key"))).toBe(false);
  });
});

describe("the data directory on the way in", () => {
  test.skipIf(onPostgres)("a data directory on a read-only disk is one line and exit 1, not a stack trace", async () => {
    const ro = tempDir();
    if (Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", ro]).exitCode !== 0) return console.warn("cannot mount a tmpfs (not root?): SKIPPED");
    try {
      const { code, stderr } = await runCli(["--port", "0", "--host", "127.0.0.1", "--data-dir", ro]);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`dreadcast: the data directory ${ro} cannot be written (a read-only file system); give the server one it may write to with --data-dir`);
    } finally {
      Bun.spawnSync(["umount", ro]);
    }
  });
});

describe("payments made after the backup", () => {
  test("a restore from a backup older than the last sales reads them back from Stripe: the passes with their codes, the refund since, the ledger as Stripe has it", async () => {
    const stripe = await startFakeStripe();
    const work = tempDir();
    const dataDir = join(work, "data");
    const pass = passphraseFile(work);
    const archive = join(work, "night.dreadcast");
    const dump = join(work, "night.dump");
    const created = await runCli([
      "admin",
      "create",
      "--username",
      "warden",
      "--email",
      "w@example.com",
      "--password",
      "s3cret-pass",
      "--data-dir",
      dataDir,
      ...(await dbArgs(dataDir)),
    ]);
    expect(created.code).toBe(0);
    const flags = [...fakeStripeFlags(stripe.url), "--stripe-webhook-secret", FAKE_STRIPE_WEBHOOK_SECRET, "--public-url", "https://night.crypt.test"];
    let delivered = 0;
    /** Stripe's webhook: every event made since the last call, delivered to `url` in order. */
    const deliverNew = async (url: string) => {
      for (const event of stripe.events.slice(delivered)) expect((await stripe.deliverRecorded(url, event)).status).toBe(200);
      delivered = stripe.events.length;
    };
    const startIntent = async (server: { url: string }, email: string) =>
      (await new TestClient(server.url).post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email })).body.paymentIntentId as string;
    const codeOf = async (url: string, intentId: string) => {
      const res = await new TestClient(url).post("/api/generate-access-code", { paymentIntentId: intentId, deviceFingerprint: makeFingerprint() });
      expect(res.status).toBe(200);
      return res.body.accessCode as string;
    };
    const passes: Record<string, { intentId: string; code?: string }> = {};
    const server = await startServer(dataDir, flags);
    try {
      // Real card payments sell once the organiser's legal links are published.
      const warden = new TestClient(server.url);
      expect((await warden.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
      expect((await warden.put("/api/admin/livestream-settings", LEGAL_LINKS)).status).toBe(200);
      // Before the backup: two passes sold; a third buyer opens the payment dialog and pays after it.
      for (const name of ["early", "later-refunded"]) {
        const intentId = await startIntent(server, `${name}@example.com`);
        stripe.setStatus(intentId, "succeeded");
        await deliverNew(server.url);
        passes[name] = { intentId, code: await codeOf(server.url, intentId) };
      }
      passes["paid-after"] = { intentId: await startIntent(server, "paid-after@example.com") };

      const backup = await runCli(["backup", archive, "--data-dir", dataDir, "--passphrase-file", pass, ...(await dbArgs(dataDir))]);
      expect(backup.code).toBe(0);
      if (onPostgres) expect(Bun.spawnSync(["pg_dump", "-Fc", "-f", dump, readFileSync(join(dataDir, ".test-database-url"), "utf8").trim()]).exitCode).toBe(0);
      await Bun.sleep(1100);

      // After it, until the box dies: a sale, the dialog left open paid, a refund made in Stripe's dashboard.
      const intentId = await startIntent(server, "after@example.com");
      stripe.setStatus(intentId, "succeeded");
      stripe.setStatus(passes["paid-after"]!.intentId, "succeeded");
      stripe.refund(passes["later-refunded"]!.intentId);
      await deliverNew(server.url);
      passes.after = { intentId, code: await codeOf(server.url, intentId) };
      passes["paid-after"]!.code = await codeOf(server.url, passes["paid-after"]!.intentId);
    } finally {
      await server.kill("SIGKILL");
    }
    const database = onPostgres ? readFileSync(join(dataDir, ".test-database-url"), "utf8").trim() : null;
    rmSync(dataDir, { recursive: true, force: true });
    const restoredDir = join(work, "restored");
    const restore = await runCli(["restore", archive, "--data-dir", restoredDir, "--passphrase-file", pass]);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/payments {4}at start the server reads back from Stripe what was paid, refunded or disputed after \S+Z/);
    if (database) {
      writeFileSync(join(restoredDir, ".test-database-url"), database);
      expect(Bun.spawnSync(["pg_restore", "--clean", "--if-exists", "--no-owner", "-d", database, dump]).exitCode).toBe(0);
    }

    const again = await startServer(restoredDir, flags, { until: /payments: reconciled with Stripe/ });
    try {
      const line = again
        .output()
        .split("\n")
        .find((l) => l.includes("payments: reconciled"))!;
      // Two events before the backup, both in it; four after it (two successes, and a refund is two).
      expect(line).toMatch(
        /^payments: reconciled with Stripe after the restore of the backup taken at \S+Z: 6 event\(s\) since \S+Z read, 2 of them already known here; 2 pass\(es\) and 0 donation\(s\) brought back/,
      );
      expect(existsSync(join(restoredDir, "restored-backup.json"))).toBe(false);
      // Each buyer's code works as it was: the one sold after the backup, the dialog paid after it, the first.
      for (const name of ["early", "after", "paid-after"]) {
        const res = await enter(new TestClient(again.url), passes[name]!.code!, `ghost-${name}`.slice(0, 20), makeFingerprint());
        expect({ name, valid: res.body.valid }).toEqual({ name, valid: true });
      }
      const refunded = await enter(new TestClient(again.url), passes["later-refunded"]!.code!, "ghost-refunded", makeFingerprint());
      expect(refunded.body.valid).not.toBe(true);
      const admin = new TestClient(again.url);
      expect((await admin.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
      const ledger = (await admin.get("/api/admin/payments")).body as { paymentIntentId: string; status: string; refundedAmount: number }[];
      const status = Object.fromEntries(ledger.map((p) => [p.paymentIntentId, [p.status, p.refundedAmount]]));
      expect(status).toEqual({
        [passes.early!.intentId]: ["succeeded", 0],
        [passes["later-refunded"]!.intentId]: ["refunded", 100],
        [passes.after!.intentId]: ["succeeded", 0],
        [passes["paid-after"]!.intentId]: ["succeeded", 0],
      });
      // As Stripe has it: what it holds as paid and refunded, intent by intent.
      for (const [intentId, [, refundedAmount]] of Object.entries(status)) expect(stripe.chargeOf(intentId).amount_refunded).toBe(refundedAmount as number);
    } finally {
      await again.kill("SIGTERM");
      await stripe.close();
    }
  });
});
