import { SQL } from "bun";

/**
 * A PostgreSQL server for the tests that run on both engines: `DREADCAST_TEST_DATABASE_URL`, or a local
 * server on the default port. Each test gets a database of its own, dropped afterwards.
 */
export const TEST_POSTGRES_URL = process.env.DREADCAST_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

let available: Promise<boolean> | null = null;

/** Whether the server answers (asked once per test process). */
export function postgresAvailable(): Promise<boolean> {
  available ??= (async () => {
    const sql = new SQL({ url: TEST_POSTGRES_URL, max: 1, connectionTimeout: 3 });
    try {
      await sql`SELECT 1`;
      return true;
    } catch {
      return false;
    } finally {
      await sql.close().catch(() => {});
    }
  })();
  return available;
}

/** The engine the API and WebSocket suites run on: DREADCAST_TEST_ENGINE=postgres, or SQLite. */
export const TEST_ENGINE: "sqlite" | "postgres" = process.env.DREADCAST_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";

const created = new Map<string, TestDatabase>();

/** Drops every database this test process made (run once at the end by the test preload). */
export async function dropTestDatabases(): Promise<void> {
  for (const db of [...created.values()]) await db.drop().catch(() => {});
}

/** Drops one database made here, by its URL. */
export async function dropTestDatabase(url: string): Promise<void> {
  for (const db of created.values()) if (db.url === url) await db.drop();
}

/**
 * The PostgreSQL database behind a test's data directory: made on first use and remembered in the
 * directory, so an app restarted on the same directory finds the same event.
 */
export async function databaseForDataDir(dataDir: string): Promise<string> {
  const marker = `${dataDir}/.test-database-url`;
  const file = Bun.file(marker);
  if (await file.exists()) return (await file.text()).trim();
  const db = await createTestDatabase();
  await Bun.write(marker, db.url);
  return db.url;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty database on the test server. */
export async function createTestDatabase(prefix = "dreadcast_test"): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.close();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db: TestDatabase = {
    url: url.toString(),
    name,
    async drop() {
      created.delete(name);
      const sql = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await sql.close();
      }
    },
  };
  created.set(name, db);
  return db;
}

/** The engines a dual-engine test runs on here, saying once when PostgreSQL is skipped. */
export async function testEngines(): Promise<("sqlite" | "postgres")[]> {
  if (await postgresAvailable()) return ["sqlite", "postgres"];
  console.warn(`PostgreSQL not reachable at ${new URL(TEST_POSTGRES_URL).host}: skipping the PostgreSQL runs`);
  return ["sqlite"];
}
