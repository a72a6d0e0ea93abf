/**
 * The API, WebSocket, CLI and storage suites and the hardening suite's fuzzers, defences, access rules and
 * socket churn again, on PostgreSQL (the crash test runs on both engines by itself; the backup test is
 * SQLite's): each test app gets a database of its own on
 * the server at DREADCAST_TEST_DATABASE_URL (default: postgres://postgres@127.0.0.1:5432/postgres), dropped
 * afterwards. Without a server there, says so and skips.
 */
import { TEST_POSTGRES_URL, postgresAvailable } from "../tests/support/postgres.ts";

const where = new URL(TEST_POSTGRES_URL).host;
if (!(await postgresAvailable())) {
  console.log(
    `PostgreSQL not reachable at ${where}: SKIPPED the PostgreSQL runs of the API, WebSocket, CLI and hardening suites (set DREADCAST_TEST_DATABASE_URL or start a server)`,
  );
  process.exit(0);
}
const HARDENING = ["fuzz-http", "fuzz-ws", "defences", "access", "churn", "chat-powers", "host-header", "admin-login"].map((name) => `tests/hardening/${name}.test.ts`);
console.log(`API, WebSocket, CLI and hardening suites on PostgreSQL at ${where}`);
const run = Bun.spawn([process.execPath, "test", "tests/api", "tests/ws", "tests/cli/cli.test.ts", "src/db", ...HARDENING, ...process.argv.slice(2)], {
  env: { ...process.env, DREADCAST_TEST_ENGINE: "postgres" },
  stdio: ["inherit", "inherit", "inherit"],
});
process.exit(await run.exited);
