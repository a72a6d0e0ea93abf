import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, testEngines, type TestDatabase } from "../../tests/support/postgres.ts";
import { closeStore, openStore } from "./database.ts";
import { migrate } from "./migrate.ts";
import { migrations } from "./migrations.ts";
import { DatabaseTimeoutError, PostgresStore, toPostgres } from "./postgres-store.ts";
import { InvalidTextError, type Store } from "./store.ts";

test("in PostgreSQL's words: ? placeholders become $n outside quoted text, COLLATE NOCASE goes (citext)", () => {
  expect(toPostgres("SELECT * FROM t WHERE a = ? AND b = '?' AND \"c?\" = ? LIMIT ?")).toBe("SELECT * FROM t WHERE a = $1 AND b = '?' AND \"c?\" = $2 LIMIT $3");
  expect(toPostgres("SELECT 1 WHERE lower(a) = lower(?1) OR lower(b) = lower(?1)")).toBe("SELECT 1 WHERE lower(a) = lower($1) OR lower(b) = lower($1)");
  expect(toPostgres("UPDATE chat_messages SET deleted = 1 WHERE username = ? COLLATE NOCASE AND deleted = 0")).toBe(
    "UPDATE chat_messages SET deleted = 1 WHERE username = $1 AND deleted = 0",
  );
});

test("an unreachable PostgreSQL is told apart from a wrong query", async () => {
  const store = PostgresStore.connect("postgres://postgres@127.0.0.1:1/nothing", { connectionTimeout: 2 });
  const error = await store.get("SELECT 1").catch((e: unknown) => e);
  expect(store.isUnavailable(error)).toBe(true);
  await store.close();
});

test("a lost connection, as Bun.SQL reports it, is unavailability; a wrong query is not", async () => {
  const store = PostgresStore.connect("postgres://postgres@127.0.0.1:1/nothing");
  const error = (code: string, errno?: string) => Object.assign(new Error(code), { code, errno });
  for (const code of ["ERR_POSTGRES_CONNECTION_CLOSED", "ERR_POSTGRES_CONNECTION_REFUSED", "ERR_POSTGRES_CONNECTION_FAILED", "ERR_POSTGRES_CONNECTION_TIMEOUT"]) {
    expect(store.isUnavailable(error(code))).toBe(true);
  }
  expect(store.isUnavailable(error("ERR_POSTGRES_SERVER_ERROR", "57P01"))).toBe(true);
  expect(store.isUnavailable(error("ERR_POSTGRES_SERVER_ERROR", "42601"))).toBe(false);
  expect(store.isUnavailable(error("ERR_POSTGRES_SERVER_ERROR", "23505"))).toBe(false);
  expect(store.isUnavailable(new Error("boom"))).toBe(false);
  expect(store.isUnavailable(new DatabaseTimeoutError(12_000))).toBe(true);
  expect(store.isUnavailable(error("ERR_POSTGRES_SERVER_ERROR", "57014"))).toBe(true); // cancelled at the statement timeout
  expect(store.isUnavailable(error("ERR_POSTGRES_SERVER_ERROR", "25P03"))).toBe(true); // idle in a transaction too long
  await store.close();
});

for (const engine of await testEngines()) {
  describe(`storage on ${engine}`, () => {
    let store: Store;
    let dataDir: string;
    let pg: TestDatabase | null = null;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "dreadcast-store-"));
      if (engine === "postgres") pg = await createTestDatabase();
      store = await openStore({ dataDir, databaseUrl: pg?.url });
    });
    afterAll(async () => {
      await closeStore(store);
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test("every migration is applied once, and again is a no-op", async () => {
      const rows = await store.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
      expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
      expect(await migrate(store, migrations)).toEqual([]);
      const settings = await store.get<{ id: number; start_date: number }>("SELECT id, start_date FROM livestream_settings");
      expect(settings?.id).toBe(1);
      expect(typeof settings?.start_date).toBe("number");
    });

    test.skipIf(engine !== "postgres")("PostgreSQL connections carry the statement timeout and a name; a migration lifts the timeout for its transaction", async () => {
      expect(await store.get("SHOW statement_timeout")).toEqual({ statement_timeout: "10s" });
      expect(await store.get("SHOW idle_in_transaction_session_timeout")).toEqual({ idle_in_transaction_session_timeout: "30s" });
      expect(await store.get("SELECT current_setting('application_name') AS name")).toEqual({ name: "dreadcast" });
      await store.tx(async () => {
        await store.exec("SET LOCAL statement_timeout = 0");
        expect(await store.get("SHOW statement_timeout")).toEqual({ statement_timeout: "0" });
      });
      expect(await store.get("SHOW statement_timeout")).toEqual({ statement_timeout: "10s" });
      // A statement past it is cancelled by the server, and that reads as "not now" (a 503), not as a fault.
      const slow = PostgresStore.connect(pg!.url, { statementTimeoutMs: 200, max: 1 });
      try {
        const error = await slow.get("SELECT pg_sleep(2)").catch((e: unknown) => e);
        expect((error as { errno?: string }).errno).toBe("57014");
        expect(slow.isUnavailable(error)).toBe(true);
        expect(await slow.get("SELECT 1 AS one")).toEqual({ one: 1 });
      } finally {
        await slow.close();
      }
    });

    test("INSERT … RETURNING gives plain numbers, and a broken unique constraint is recognised", async () => {
      const now = Date.now();
      const code = await store.get<{ id: number; created_at: number; used: number }>(
        "INSERT INTO access_codes (code, kind, created_at) VALUES (?, ?, ?) RETURNING *",
        "SKP-STORE-0001",
        "SKP",
        now,
      );
      expect(code).toMatchObject({ created_at: now, used: 0 });
      expect(typeof code!.id).toBe("number");
      const error = await store.run("INSERT INTO access_codes (code, kind, created_at) VALUES (?, ?, ?)", "SKP-STORE-0001", "SKP", now).catch((e: unknown) => e);
      expect(store.isUniqueViolation(error)).toBe(true);
      expect(store.isUnavailable(error)).toBe(false);
    });

    test("chat names are unique without regard to case, and found without it", async () => {
      await store.run("INSERT INTO users (username, created_at) VALUES (?, ?)", "Wraith", Date.now());
      const error = await store.run("INSERT INTO users (username, created_at) VALUES (?, ?)", "wRAITH", Date.now()).catch((e: unknown) => e);
      expect(store.isUniqueViolation(error)).toBe(true);
      expect(await store.get<{ username: string }>("SELECT username FROM users WHERE username = ?", "WRAITH")).toEqual({ username: "Wraith" });
    });

    test("a transaction commits together or not at all; one inside another joins it", async () => {
      await store.tx(async () => {
        await store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "kept", 1);
        await store.tx(() => store.run("UPDATE event_counters SET value = value + 1 WHERE name = ?", "kept"));
      });
      const failed = await store
        .tx(async () => {
          await store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "lost", 1);
          await store.run("UPDATE event_counters SET value = 100 WHERE name = ?", "kept");
          throw new Error("rolled back");
        })
        .catch((e: Error) => e.message);
      expect(failed).toBe("rolled back");
      expect(await store.all("SELECT name, value FROM event_counters ORDER BY name")).toEqual([{ name: "kept", value: 2 }]);
    });

    test("work outside a transaction is neither part of it nor lost when it rolls back", async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const inside = store
        .tx(async () => {
          await store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "inside", 1);
          await gate;
          throw new Error("undo");
        })
        .catch(() => {});
      const outside = store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "outside", 1);
      release();
      await Promise.all([inside, outside]);
      expect(await store.all("SELECT name FROM event_counters WHERE name IN ('inside', 'outside')")).toEqual([{ name: "outside" }]);
    });

    test("text with a NUL character is refused before it reaches the database, whichever the engine", async () => {
      for (const attempt of [
        () => store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "nul\u0000name", 1),
        () => store.all("SELECT name FROM event_counters WHERE name = ?", "a\u0000"),
        () => store.get("SELECT name FROM event_counters WHERE name = ?", "\u0000"),
      ]) {
        expect(await attempt().catch((e: unknown) => e)).toBeInstanceOf(InvalidTextError);
      }
      expect(await store.all("SELECT name FROM event_counters WHERE name LIKE 'nul%'")).toEqual([]);
    });

    test("sums come back as numbers, and writes move the write stamp", async () => {
      // The counters are no cache's: a write there leaves the stamp where it was.
      const before = store.writes;
      await store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "big", 2 ** 40);
      expect(store.writes).toBe(before);
      const row = await store.get<{ total: number }>("SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) AS total FROM event_counters WHERE name = ?", "big");
      expect(row).toEqual({ total: 2 ** 40 });
      const stamp = store.writes;
      await store.get("SELECT 1 AS one");
      expect(store.writes).toBe(stamp);
    });

    test("a table's write stamp moves with writes to it, in a transaction once more when it ends, and with any change from elsewhere", async () => {
      const sessions = () => store.writesTo(["viewer_sessions", "banned_users"]);
      const settings = () => store.writesTo(["livestream_settings"]);
      const [s0, t0, all0] = [sessions(), settings(), store.writes];
      await store.run("UPDATE livestream_settings SET event_title = event_title WHERE id = 1");
      expect([sessions(), settings() > t0, store.writes > all0]).toEqual([s0, true, true]);
      await store.run("INSERT INTO event_counters (name, value) VALUES (?, ?)", "stamps", 1);
      await store.run("INSERT INTO banned_users (username, created_at) VALUES (?, ?)", "stamped", Date.now());
      const s1 = sessions();
      expect(s1).toBe(s0 + 1);
      let inside = 0;
      await store.tx(async () => {
        await store.run("DELETE FROM banned_users WHERE username = ?", "stamped");
        inside = sessions();
      });
      expect(inside).toBe(s1 + 1);
      expect(sessions()).toBeGreaterThan(inside);
      const t1 = settings();
      store.changedElsewhere();
      expect([sessions() > s1, settings() > t1]).toEqual([true, true]);
      await store.run("DELETE FROM event_counters WHERE name = ?", "stamps");
    });
  });
}
