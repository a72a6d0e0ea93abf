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
  return {
    url: url.toString(),
    name,
    async drop() {
      const sql = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await sql.close();
      }
    },
  };
}

/** The engines a dual-engine test runs on here, saying once when PostgreSQL is skipped. */
export async function testEngines(): Promise<("sqlite" | "postgres")[]> {
  if (await postgresAvailable()) return ["sqlite", "postgres"];
  console.warn(`PostgreSQL not reachable at ${new URL(TEST_POSTGRES_URL).host}: skipping the PostgreSQL runs`);
  return ["sqlite"];
}
