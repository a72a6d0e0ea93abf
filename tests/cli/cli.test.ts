import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../../package.json";
import { openSqlite, openStore } from "../../src/db/database.ts";
import { SqliteStore } from "../../src/db/sqlite-store.ts";
import { createTestDatabase, databaseForDataDir, postgresAvailable, TEST_ENGINE } from "../support/postgres.ts";
import { AdminService } from "../../src/modules/admin/service.ts";
import { runCli } from "../support/cli.ts";
import { startServer } from "../support/server.ts";
import { migrate } from "../../src/db/migrate.ts";
import { migrations, SCHEMA_VERSION } from "../../src/db/migrations.ts";
import { describeCheckout, versionFromDescribe } from "../../src/version.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

// Each test starts the command line a few times, and each start migrates a database and may hash a password
// (argon2id): seconds apiece on a busy machine, so more than the default five.
setDefaultTimeout(30_000);

const run = runCli;

const tempDir = () => mkdtempSync(join(tmpdir(), "dreadcast-cli-"));

/** The archive's passphrase, as cron would give it. */
const PASSPHRASE_ENV = { DREADCAST_BACKUP_PASSPHRASE: "wormwood lantern cellar 1907" };

/** The suite runs on SQLite, and again on PostgreSQL (DREADCAST_TEST_ENGINE=postgres): a database per data directory. */
const onPostgres = TEST_ENGINE === "postgres";
const dbArgs = async (dir: string): Promise<string[]> => (onPostgres ? ["--database-url", await databaseForDataDir(dir)] : []);

/** The event's store behind a data directory, on whichever engine the suite runs. */
async function storeOf(dir: string) {
  return openStore({ dataDir: dir, databaseUrl: onPostgres ? await databaseForDataDir(dir) : null });
}

describe("flags", () => {
  test("--help lists every flag with its env var and exits 0", async () => {
    const { stdout, code } = await run(["--help"]);
    expect(code).toBe(0);
    for (const flag of [
      "--port",
      "--host",
      "--data-dir",
      "--public-url",
      "--stripe-secret-key",
      "--stripe-publishable-key",
      "--stripe-webhook-secret",
      "--stripe-api-url",
      "--smtp-url",
      "--mail-from",
      "--enable-test-codes",
      "--chat-batch-ms",
      "--replay-cache-mb",
      "--database-timeout",
      "--rtmp-port",
      "--rtmps-port",
      "--tls-cert",
      "--tls-key",
      "--version",
      "admin create",
      "admin reset-password",
      "admin disable-2fa",
      "--secret-key",
      "backup FILE",
      "restore ARCHIVE",
      "--passphrase-file",
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain("DREADCAST_PORT");
  });

  test("--version prints the version the checkout describes (its tag, or package.json's with the commit)", async () => {
    const { stdout, code } = await run(["--version"]);
    expect(code).toBe(0);
    // Described again now, not at import: a commit made meanwhile moves it.
    const described = describeCheckout(resolve(import.meta.dir, "../.."));
    expect(stdout.trim()).toBe(`dreadcast ${versionFromDescribe(described!, pkg.version)}`);
    expect(versionFromDescribe("513d8b7-dirty", "0.1.0")).toBe("0.1.0+g513d8b7-dirty");
    expect(versionFromDescribe("v1.2.0-3-g513d8b7", "0.1.0")).toBe("1.2.0-3-g513d8b7");
    expect(versionFromDescribe("", "0.1.0")).toBe("0.1.0");
  });

  const bad: { name: string; args: string[]; env?: Record<string, string>; message: RegExp }[] = [
    { name: "an unknown flag", args: ["--bogus"], message: /unknown flag '--bogus'/ },
    { name: "a non-numeric port", args: ["--port", "abc"], message: /--port must be a whole number/ },
    { name: "a port out of range", args: ["--port=70000"], message: /--port must be a whole number/ },
    { name: "a flag without its value", args: ["--host"], message: /--host needs a value/ },
    { name: "a public URL that is not a URL", args: ["--public-url", "nope"], message: /--public-url must be a URL/ },
    { name: "an SMTP URL with the wrong scheme", args: ["--smtp-url", "http://mail"], message: /--smtp-url has an unsupported scheme/ },
    { name: "a bad boolean", args: ["--enable-test-codes=maybe"], message: /must be true or false/ },
    { name: "a batching window past a second", args: ["--chat-batch-ms", "1001"], message: /--chat-batch-ms must be a whole number of milliseconds from 0 to 1000/ },
    { name: "a replay cache that is not a size", args: ["--replay-cache-mb", "lots"], message: /--replay-cache-mb must be a whole number of MiB from 0 to 65536, got 'lots'/ },
    { name: "a replay cache past 64 GiB", args: ["--replay-cache-mb=70000"], message: /--replay-cache-mb must be a whole number of MiB from 0 to 65536/ },
    { name: "a database timeout past ten minutes", args: ["--database-timeout", "601"], message: /--database-timeout must be a whole number of seconds from 0 to 600, got '601'/ },
    { name: "a database timeout that is not whole seconds", args: ["--database-timeout=2.5"], message: /--database-timeout must be a whole number of seconds/ },
    {
      name: "a bad database timeout in the environment",
      args: [],
      env: { DREADCAST_DATABASE_TIMEOUT: "soon" },
      message: /--database-timeout must be a whole number of seconds from 0 to 600, got 'soon'/,
    },
    { name: "a stray argument", args: ["serve"], message: /unexpected argument 'serve'/ },
    { name: "a secret key without a publishable key", args: ["--stripe-secret-key", "sk_test_1"], message: /needs --stripe-publishable-key/ },
    { name: "a bad env var", args: [], env: { DREADCAST_PORT: "-1" }, message: /--port must be a whole number/ },
    { name: "admin with no action", args: ["admin"], message: /unknown admin action/ },
    { name: "admin create without fields", args: ["admin", "create", "--username", "abc"], message: /missing --email, --password/ },
    {
      name: "admin create with a bad e-mail",
      args: ["admin", "create", "--username", "abc", "--email", "x", "--password", "secret1"],
      message: /Please enter a valid email address/,
    },
    {
      name: "admin create with a short password",
      args: ["admin", "create", "--username", "abc", "--email", "a@b.co", "--password", "123"],
      message: /Password must be at least 6 characters/,
    },
    { name: "backup without a file", args: ["backup"], message: /backup needs exactly one FILE/ },
    { name: "an RTMP port out of range", args: ["--rtmp-port", "65536"], message: /--rtmp-port must be a whole number from 0 to 65535/ },
    { name: "the RTMP port on the HTTP port", args: ["--port", "4000", "--rtmp-port", "4000"], message: /--rtmp-port and --port are both 4000/ },
    {
      name: "a certificate that cannot be read",
      args: ["--tls-cert", "/nonexistent/cert.pem", "--tls-key", MAIN],
      message: /--tls-cert cannot be read: \/nonexistent\/cert.pem \(ENOENT\)/,
    },
    { name: "a certificate without its key", args: ["--tls-cert", MAIN], message: /--tls-cert needs --tls-key too/ },
    { name: "files that are no certificate", args: ["--tls-cert", MAIN, "--tls-key", MAIN], message: /--tls-cert and --tls-key do not make a usable certificate/ },
  ];
  for (const c of bad) {
    test(`${c.name} prints one line on stderr and exits 2`, async () => {
      const { stderr, code } = await run([...c.args, "--data-dir", tempDir()], c.env);
      expect(code).toBe(2);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(c.message);
    });
  }
});

describe("admin subcommands", () => {
  test("admin create and reset-password act on PostgreSQL given --database-url (or DREADCAST_DATABASE_URL)", async () => {
    if (!(await postgresAvailable())) return console.warn("PostgreSQL not reachable: skipped the admin commands on PostgreSQL");
    const db = await createTestDatabase();
    const dir = tempDir();
    try {
      const created = await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "old-pass", "--database-url", db.url, "--data-dir", dir]);
      expect(created.code).toBe(0);
      const reset = await run(["admin", "reset-password", "--username", "warden", "--password", "new-pass", "--data-dir", dir], { DREADCAST_DATABASE_URL: db.url });
      expect(reset.code).toBe(0);
      const store = await openStore({ dataDir: dir, databaseUrl: db.url });
      try {
        const admins = new AdminService(store);
        expect(await admins.verifyCredentials("warden", "new-pass")).not.toBeNull();
      } finally {
        await store.close();
      }
      // Nothing went to a SQLite file in the data directory.
      expect(existsSync(join(dir, "dreadcast.db"))).toBe(false);
    } finally {
      await db.drop();
    }
  }, 20_000);

  test("admin create makes an admin who can log in; a duplicate exits 1", async () => {
    const dir = tempDir();
    const created = await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret!", "--data-dir", dir, ...(await dbArgs(dir))]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("admin 'warden' created");
    const store = await storeOf(dir);
    expect(await new AdminService(store).verifyCredentials("warden", "s3cret!")).not.toBeNull();
    await store.close();
    const again = await run(["admin", "create", "--username", "WARDEN", "--email", "w@example.com", "--password", "s3cret!", "--data-dir", dir, ...(await dbArgs(dir))]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
  });

  test("admin reset-password replaces the password; an unknown admin exits 1", async () => {
    const dir = tempDir();
    await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "old-pass", "--data-dir", dir, ...(await dbArgs(dir))]);
    const reset = await run(["admin", "reset-password", "--username", "warden", "--password", "new-pass", "--data-dir", dir, ...(await dbArgs(dir))]);
    expect(reset.code).toBe(0);
    const store = await storeOf(dir);
    const admins = new AdminService(store);
    expect(await admins.verifyCredentials("warden", "old-pass")).toBeNull();
    expect(await admins.verifyCredentials("warden", "new-pass")).not.toBeNull();
    await store.close();
    const missing = await run(["admin", "reset-password", "--username", "ghost", "--password", "new-pass", "--data-dir", dir, ...(await dbArgs(dir))]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no admin named 'ghost'");
  });

  test("admin create --role makes a member of that role; a role that does not exist exits 2", async () => {
    const dir = tempDir();
    const created = await run([
      "admin",
      "create",
      "--username",
      "helper",
      "--email",
      "h@example.com",
      "--password",
      "s3cret!",
      "--role",
      "support",
      "--data-dir",
      dir,
      ...(await dbArgs(dir)),
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("admin 'helper' created (support)");
    const store = await storeOf(dir);
    expect((await new AdminService(store).findByUsername("helper"))?.role).toBe("support");
    await store.close();
    const bad = await run([
      "admin",
      "create",
      "--username",
      "extra",
      "--email",
      "x@example.com",
      "--password",
      "s3cret!",
      "--role",
      "king",
      "--data-dir",
      dir,
      ...(await dbArgs(dir)),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Choose a role: owner, operator, support or moderator");
  });

  test("admin disable-2fa turns off a member's second factors, for a lost phone; an unknown admin exits 1", async () => {
    const dir = tempDir();
    await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "old-pass", "--data-dir", dir, ...(await dbArgs(dir))]);
    let store = await storeOf(dir);
    const id = (await new AdminService(store).findByUsername("warden"))!.id;
    await store.run("UPDATE admins SET totp_secret = 'v1:x', totp_enabled_at = 1 WHERE id = ?", id);
    await store.run("INSERT INTO admin_recovery_codes (admin_id, code_hash, created_at) VALUES (?, 'h', 1)", id);
    await store.close();
    const off = await run(["admin", "disable-2fa", "--username", "warden", "--data-dir", dir, ...(await dbArgs(dir))]);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("two-factor sign-in of admin 'warden' turned off");
    store = await storeOf(dir);
    expect(await store.get("SELECT totp_enabled_at FROM admins WHERE id = ?", id)).toEqual({ totp_enabled_at: null });
    expect(await store.all("SELECT * FROM admin_recovery_codes")).toEqual([]);
    expect((await store.get<{ action: string }>("SELECT action FROM audit_log ORDER BY id DESC LIMIT 1"))?.action).toBe("2fa.disable");
    await store.close();
    const missing = await run(["admin", "disable-2fa", "--username", "ghost", "--data-dir", dir, ...(await dbArgs(dir))]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no admin named 'ghost'");
  });

  test.skipIf(onPostgres)("DREADCAST_DATA_DIR is honoured by subcommands", async () => {
    const dir = tempDir();
    const created = await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret!"], { DREADCAST_DATA_DIR: dir });
    expect(created.code).toBe(0);
    expect(existsSync(join(dir, "dreadcast.db"))).toBe(true);
  });
});

describe("backup", () => {
  test.skipIf(onPostgres)("backup writes an archive whose database restores, opens and passes integrity_check; it refuses to overwrite", async () => {
    const dir = tempDir();
    await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret!", "--data-dir", dir]);
    const target = join(tempDir(), "copy.dreadcast");
    const first = await run(["backup", target, "--data-dir", dir], PASSPHRASE_ENV);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^backup written to \S+copy\.dreadcast \(\d+\.\d KiB, encrypted with age under the passphrase; dreadcast \S+, schema \d+\):$/m);
    const restored = join(tempDir(), "restored");
    expect((await run(["restore", target, "--data-dir", restored], PASSPHRASE_ENV)).code).toBe(0);
    const copy = new Database(join(restored, "dreadcast.db"), { readonly: true });
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(copy.query("SELECT username FROM admins").all()).toEqual([{ username: "warden" }]);
    copy.close();
    const second = await run(["backup", target, "--data-dir", dir], PASSPHRASE_ENV);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("already exists");
  });

  test.skipIf(onPostgres)("backup refuses a data directory without a database, and makes neither the database nor the directory", async () => {
    const parent = tempDir();
    for (const dir of [join(parent, "dta"), parent]) {
      const target = join(tempDir(), "copy.db");
      const { code, stdout, stderr } = await run(["backup", target, "--data-dir", dir], PASSPHRASE_ENV);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toContain(dir);
      expect(existsSync(target)).toBe(false);
      expect(existsSync(join(dir, "dreadcast.db"))).toBe(false);
    }
    expect(existsSync(join(parent, "dta"))).toBe(false);
    // Without --data-dir, from a directory with no data/ in it (cron's working directory).
    const proc = Bun.spawn([process.execPath, MAIN, "backup", join(parent, "copy.db")], { cwd: parent, env: { PATH: process.env.PATH ?? "", ...PASSPHRASE_ENV }, stderr: "pipe" });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain(`no data directory at ${join(parent, "data")}`);
    expect(existsSync(join(parent, "data"))).toBe(false);
  });

  test.skipIf(onPostgres)("a backup onto a full disk fails in one line, exit 1, and leaves no half-written file behind", async () => {
    const dir = tempDir();
    await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "s3cret!", "--data-dir", dir]);
    // A real, tiny filesystem (mounting needs root, as in CI).
    const small = tempDir();
    if (Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", small]).exitCode !== 0)
      return console.warn("cannot mount a tmpfs (not root?): SKIPPED the backup onto a full disk");
    try {
      const target = join(small, "copy.dreadcast");
      const { code, stderr } = await run(["backup", target, "--data-dir", dir], PASSPHRASE_ENV);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe("dreadcast: backup failed: database or disk is full");
      expect(readdirSync(small)).toEqual([]);
    } finally {
      Bun.spawnSync(["umount", small]);
    }
  });
});

/** Starts a server on `dir` and waits until it has printed `until` too; the process keeps running. */
const serve = (dir: string, { until = "data: ", flags = [] as string[] } = {}) => startServer(dir, flags, { until });

describe("serving", () => {
  test("prints the URL, the modes and the first-admin hint, and shuts down cleanly on SIGTERM", async () => {
    const dir = tempDir();
    const server = await serve(dir, { until: "create the first one" });
    const [out, url] = [server.output(), server.url];
    expect(out).toContain("payments: demo mode");
    expect(out).toContain(`e-mail: outbox folder ${dir}/outbox`);
    expect(out).toContain(`${url}/admin/create-first-admin`);
    expect(out).toContain(onPostgres ? "data: PostgreSQL at 127.0.0.1:5432/" : `data: ${dir}`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await server.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    const wal = join(dir, "dreadcast.db-wal");
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
  });

  test("prints the schema at start, and the step when it migrates", async () => {
    const dir = tempDir();
    const store = await storeOf(dir);
    await store.close();
    const server = await serve(dir);
    // The version itself is --version's test: others commit in this checkout while the suite runs.
    expect(server.output()).toMatch(/^dreadcast \S+ listening on /m);
    expect(server.output()).toMatch(new RegExp(`^data: .*, schema ${SCHEMA_VERSION}$`, "m"));
    await server.kill("SIGTERM");
    if (onPostgres) return;
    // A database left by the release before the newest migration.
    const older = tempDir();
    const old = new SqliteStore(openSqlite(older));
    await migrate(
      old,
      migrations.filter((m) => m.version < SCHEMA_VERSION),
    );
    await old.close();
    const upgraded = await serve(older);
    expect(upgraded.output()).toContain(`schema ${SCHEMA_VERSION - 1} → ${SCHEMA_VERSION}`);
    await upgraded.kill("SIGTERM");
  });

  test("a start whose database holds sealed secrets but whose key is missing says so, naming the key file", async () => {
    const dir = tempDir();
    const store = await storeOf(dir);
    await store.run(
      "INSERT INTO admins (username, email, password_hash, created_at, role, totp_secret, totp_enabled_at) VALUES ('warden', 'w@example.com', 'x', 1, 'owner', 'v1:x', 1)",
    );
    await store.close();
    const server = await serve(dir, { until: "warning: " });
    expect(server.output()).toContain(`warning: ${join(dir, "secrets.key")} is missing, yet the database holds 1 member(s)' authenticator secrets sealed under a key`);
    await server.kill("SIGTERM");
    // With the key there, nothing to say.
    writeFileSync(join(dir, "secrets.key"), Buffer.alloc(32, 5));
    const again = await serve(dir);
    expect(again.output()).not.toContain("warning: ");
    await again.kill("SIGTERM");
  });

  test("a database written by a newer dreadcast is refused before it is touched: exit 2, one line, for serving and the commands", async () => {
    const dir = tempDir();
    const store = await storeOf(dir);
    await store.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from the future', 1)", SCHEMA_VERSION + 5);
    await store.close();
    const before = onPostgres ? 0 : statSync(join(dir, "dreadcast.db")).mtimeMs;
    for (const args of [
      ["--port", "0", "--host", "127.0.0.1"],
      ["admin", "reset-password", "--username", "warden", "--password", "new-pass"],
    ]) {
      const { code, stdout, stderr } = await run([...args, "--data-dir", dir, ...(await dbArgs(dir))]);
      expect(code).toBe(2);
      expect(stdout).not.toContain("listening");
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toContain("this database was written by a newer dreadcast: run that version, or restore a backup");
      expect(stderr).toContain(`schema is ${SCHEMA_VERSION + 5}, this build knows up to ${SCHEMA_VERSION}`);
    }
    if (!onPostgres) expect(statSync(join(dir, "dreadcast.db")).mtimeMs).toBe(before);
  });

  test("with a public URL, prints the address it bound beside it (what a balancer must reach)", async () => {
    const dir = tempDir();
    const server = await serve(dir, { until: "create the first one", flags: ["--public-url", "https://night.dreadcast.test"] });
    expect(server.output()).toMatch(new RegExp(`^dreadcast \\S+ listening on ${server.url} \\(public URL https://night\\.dreadcast\\.test\\)$`, "m"));
    expect(server.output()).toContain("no admin yet: create the first one at https://night.dreadcast.test/admin/create-first-admin");
    await server.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
  });

  test("a port already in use is a clear error, not a stack trace", async () => {
    const blocker = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("x") });
    const dir = tempDir();
    const { code, stderr } = await run(["--port", String(blocker.port), "--host", "127.0.0.1", "--data-dir", dir, ...(await dbArgs(dir))]);
    void blocker.stop(true);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("already in use");
  });

  test("a second server on the same port exits 1 with the port message, and the first keeps serving", async () => {
    const first = await serve(tempDir());
    try {
      const dir = tempDir();
      const second = await run(["--port", new URL(first.url).port, "--host", "127.0.0.1", "--data-dir", dir, ...(await dbArgs(dir))]);
      expect(second.code).toBe(1);
      expect(second.stderr.trim()).toBe("dreadcast: the port is already in use; pick another with --port");
      for (let i = 0; i < 20; i++) expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      await first.kill("SIGTERM");
    }
  });

  test.skipIf(onPostgres)("a second server on the same data directory exits 1 naming the directory and the holder's pid, and writes nothing", async () => {
    const dir = tempDir();
    const first = await serve(dir);
    try {
      const before = statSync(join(dir, "dreadcast.db")).mtimeMs;
      const second = await run(["--port", "0", "--host", "127.0.0.1", "--data-dir", dir]);
      expect(second.code).toBe(1);
      expect(second.stderr.trim().split("\n")).toHaveLength(1);
      expect(second.stderr).toContain(`the data directory ${dir} is in use by another dreadcast (pid ${first.pid})`);
      expect(second.stdout).not.toContain("listening");
      expect(statSync(join(dir, "dreadcast.db")).mtimeMs).toBe(before);
    } finally {
      await first.kill("SIGTERM");
    }
  });

  test("after kill -9 a new server starts on the same data directory at once", async () => {
    const dir = tempDir();
    const first = await serve(dir);
    await first.kill("SIGKILL");
    const again = await serve(dir);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    await again.kill("SIGTERM");
    expect((await again.exited).code).toBe(0);
    const third = await serve(dir);
    await third.kill("SIGTERM");
    expect((await third.exited).code).toBe(0);
  });

  test.skipIf(onPostgres)(
    "backup and admin reset-password work beside the running server",
    async () => {
      const dir = tempDir();
      await run(["admin", "create", "--username", "warden", "--email", "w@example.com", "--password", "old-pass", "--data-dir", dir]);
      const server = await serve(dir);
      try {
        const target = join(tempDir(), "live.dreadcast");
        const backup = await run(["backup", target, "--data-dir", dir], PASSPHRASE_ENV);
        expect(backup.code).toBe(0);
        expect(existsSync(target)).toBe(true);
        const reset = await run(["admin", "reset-password", "--username", "warden", "--password", "new-pass", "--data-dir", dir]);
        expect(reset.code).toBe(0);
        const login = await fetch(`${server.url}/api/admin/login`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url },
          body: JSON.stringify({ username: "warden", password: "new-pass" }),
        });
        expect(login.status).toBe(200);
      } finally {
        await server.kill("SIGTERM");
      }
    },
    20_000,
  );
});
