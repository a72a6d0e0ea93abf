import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BackupStatus } from "../../src/contracts/admin-panel.ts";
import { SCHEMA_VERSION } from "../../src/db/migrations.ts";
import { TestClient } from "../support/app.ts";
import { backupsToDelete, scheduledName } from "../../src/cli/backup-schedule.ts";
import { runCli } from "../support/cli.ts";
import { eventually } from "../support/eventually.ts";
import { startTestS3 } from "../support/s3.ts";
import { startServer } from "../support/server.ts";

// Each backup derives its key with scrypt (a second or two): the schedule runs every 2 s here.
setDefaultTimeout(60_000);

const PASSPHRASE = "wormwood lantern cellar 1907";
const tempDir = () => mkdtempSync(join(tmpdir(), "dreadcast-schedule-"));
const SCHEDULED = /^dreadcast-\d{4}-\d{2}-\d{2}T[\d-]+Z\.dreadcast$/;
const env = { ...process.env, NODE_ENV: "production", DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE };
const taken = (output: string) => output.split("\n").filter((l) => l.startsWith("backup taken: ")).length;

describe("scheduled backups", () => {
  test("--backup-every takes the archive into a folder on time and keeps the newest --backup-keep; each restores", async () => {
    const dataDir = tempDir();
    const shelf = join(tempDir(), "shelf");
    const server = await startServer(dataDir, ["--backup-every", "2s", "--backup-to", shelf, "--backup-keep", "2"], { env, until: "backups: " });
    try {
      expect(server.output()).toContain(`backups: every 2 s into ${shelf}, the newest 2 kept and the last of each of 7 day(s)`);
      await eventually(async () => taken(server.output()) >= 3 || null, 30_000, "three backups taken");
      expect(server.output()).toContain("older one(s) deleted, the newest 2 kept");
      expect(server.output()).not.toContain("backup failed");
    } finally {
      await server.kill("SIGTERM");
    }
    const kept = readdirSync(shelf)
      .filter((n) => SCHEDULED.test(n))
      .sort();
    expect(kept).toHaveLength(2);
    const restored = join(tempDir(), "restored");
    const restore = await runCli(["restore", join(shelf, kept.at(-1)!), "--data-dir", restored], { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
  });

  test("--backup-to s3://bucket/prefix sends them to the bucket and deletes the older ones there", async () => {
    const s3 = await startTestS3("backups");
    const dataDir = tempDir();
    const { s3Endpoint, s3Region, s3AccessKeyId, s3SecretAccessKey } = s3.config("x");
    const flags = ["--backup-every", "2s", "--backup-to", "s3://backups/night", "--backup-keep", "1"];
    const server = await startServer(
      dataDir,
      [...flags, "--s3-endpoint", s3Endpoint, "--s3-region", s3Region, "--s3-access-key-id", s3AccessKeyId, "--s3-secret-access-key", s3SecretAccessKey],
      { env, until: "backups: " },
    );
    try {
      await eventually(async () => taken(server.output()) >= 2 || null, 30_000, "two backups taken");
      expect(server.output()).toMatch(/backup taken: s3:\/\/backups\/night\/dreadcast-\S+\.dreadcast \(/);
      const listed = await s3.client.list({ prefix: "night/" });
      const names = (listed.contents ?? []).map((c) => c.key.slice("night/".length)).filter((n) => SCHEDULED.test(n));
      expect(names.length).toBeGreaterThanOrEqual(1);
      expect(names.length).toBeLessThanOrEqual(2);
    } finally {
      await server.kill("SIGTERM");
      await s3.close();
    }
  });

  test("the newest --backup-keep are kept, and the last of each of the last --backup-days days", () => {
    const at = (iso: string) => scheduledName(new Date(iso));
    const names = [
      at("2026-10-20T23:00:00Z"),
      at("2026-10-25T10:00:00Z"),
      at("2026-10-25T23:00:00Z"),
      at("2026-10-29T23:00:00Z"),
      at("2026-10-30T22:00:00Z"),
      at("2026-10-30T23:00:00Z"),
      at("2026-10-31T21:00:00Z"),
      at("2026-10-31T22:00:00Z"),
      at("2026-10-31T23:00:00Z"),
      "notes.txt",
    ];
    const now = new Date("2026-10-31T23:30:00Z");
    // A week back: the 25th's last, the 29th's, the 30th's last and the newest two.
    expect(backupsToDelete(names, 2, 7, now).sort()).toEqual([at("2026-10-20T23:00:00Z"), at("2026-10-25T10:00:00Z"), at("2026-10-30T22:00:00Z"), at("2026-10-31T21:00:00Z")]);
    // One day: today's last, among the newest anyway.
    expect(backupsToDelete(names, 2, 1, now)).toHaveLength(7);
    expect(backupsToDelete(names, 100, 1, now)).toEqual([]);
  });

  const bad: { name: string; args: string[]; env?: Record<string, string>; message: RegExp }[] = [
    { name: "--backup-every without --backup-to", args: ["--backup-every", "1h"], env: { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE }, message: /--backup-every needs --backup-to/ },
    { name: "--backup-to without --backup-every", args: ["--backup-to", "/tmp/x"], message: /--backup-to needs --backup-every/ },
    { name: "no passphrase", args: ["--backup-every", "1h", "--backup-to", "/tmp/x"], message: /--backup-every needs a passphrase/ },
    { name: "a time that is not one", args: ["--backup-every", "hourly", "--backup-to", "/tmp/x"], message: /--backup-every must be a time such as 30m, 1h or 1d/ },
    {
      name: "a count that is not one",
      args: ["--backup-every", "1h", "--backup-to", "/tmp/x", "--backup-keep", "0"],
      env: { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE },
      message: /--backup-keep must be a whole number from 1/,
    },
    {
      name: "a number of days that is not one",
      args: ["--backup-every", "1h", "--backup-to", "/tmp/x", "--backup-days", "a week"],
      env: { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE },
      message: /--backup-days must be a whole number from 1/,
    },
    {
      name: "a bucket URL that is not one",
      args: ["--backup-every", "1h", "--backup-to", "s3://"],
      env: { DREADCAST_BACKUP_PASSPHRASE: PASSPHRASE },
      message: /--backup-to must be an s3:\/\/bucket\/prefix URL/,
    },
  ];
  for (const c of bad) {
    test(`${c.name} is one line and exit 2`, async () => {
      const dir = tempDir();
      const { code, stderr } = await runCli([...c.args, "--port", "0", "--data-dir", dir], c.env);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(c.message);
      expect(code).toBe(2);
    });
  }
});

describe("the schedule's outcome", () => {
  test("reaches the panel's stats and /metrics: the last good backup's time and age, then a failure that is said until the next good one", async () => {
    const dataDir = tempDir();
    expect((await runCli(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret-pass", "--data-dir", dataDir])).code).toBe(0);
    const shelf = join(tempDir(), "shelf");
    const server = await startServer(dataDir, ["--backup-every", "2s", "--backup-to", shelf, "--backup-keep", "2", "--metrics"], { env, until: "backups: " });
    try {
      const admin = new TestClient(server.url);
      expect((await admin.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
      const backups = async () => (await admin.get("/api/admin/stats")).body.backups as BackupStatus;
      const metrics = async () => await (await fetch(`${server.url}/metrics`)).text();
      const before = await backups();
      expect(before).toMatchObject({ everyMs: 2000, lastGoodAt: null, failing: false });
      const good = await eventually(async () => ((await backups()).lastGoodAt ? backups() : null), 30_000, "a good backup");
      expect(good).toMatchObject({ failing: false, late: false, lastFailedAt: null });
      expect(Date.now() - Date.parse(good.lastGoodAt!)).toBeLessThan(10_000);
      const text = await metrics();
      expect(text).toMatch(/^dreadcast_event_backup_age_seconds\{instance="[^"]+"\} \d+$/m);
      expect(text).toMatch(/^dreadcast_event_backup_failing\{instance="[^"]+"\} 0$/m);
      const stats = (await admin.get("/api/admin/stats")).body;
      expect(stats.server.schema).toBe(SCHEMA_VERSION);
      const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { version: string };
      expect(stats.server.version).toBe(ready.version);

      // A file where the folder was: every backup after it fails.
      rmSync(shelf, { recursive: true, force: true });
      writeFileSync(shelf, "not a folder");
      const failing = await eventually(async () => ((await backups()).failing ? backups() : null), 30_000, "a failed backup");
      expect(Date.parse(failing.lastFailedAt!)).toBeGreaterThan(Date.parse(failing.lastGoodAt!));
      expect(await metrics()).toMatch(/^dreadcast_event_backup_failing\{instance="[^"]+"\} 1$/m);
      await eventually(async () => (await backups()).late || null, 30_000, "late: no good backup in twice the interval");
      expect(server.output()).toContain("backup failed: ");

      rmSync(shelf, { force: true });
      mkdirSync(shelf, { mode: 0o700 });
      await eventually(async () => ((await backups()).failing ? null : true), 30_000, "a good backup again");
      expect(await backups()).toMatchObject({ failing: false, late: false });
    } finally {
      await server.kill("SIGTERM");
    }
  });
});
