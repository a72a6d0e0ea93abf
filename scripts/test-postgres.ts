/**
 * The API, WebSocket and storage suites again, on PostgreSQL: each test app gets a database of its own on
 * the server at DREADCAST_TEST_DATABASE_URL (default: postgres://postgres@127.0.0.1:5432/postgres), dropped
 * afterwards. Without a server there, says so and skips.
 */
import { TEST_POSTGRES_URL, postgresAvailable } from "../tests/support/postgres.ts";

const where = new URL(TEST_POSTGRES_URL).host;
if (!(await postgresAvailable())) {
  console.log(`PostgreSQL not reachable at ${where}: SKIPPED the PostgreSQL runs of the API and WebSocket suites (set DREADCAST_TEST_DATABASE_URL or start a server)`);
  process.exit(0);
}
console.log(`API and WebSocket suites on PostgreSQL at ${where}`);
const run = Bun.spawn([process.execPath, "test", "tests/api", "tests/ws", "src/db", ...process.argv.slice(2)], {
  env: { ...process.env, DREADCAST_TEST_ENGINE: "postgres" },
  stdio: ["inherit", "inherit", "inherit"],
});
process.exit(await run.exited);
