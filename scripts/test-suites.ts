/**
 * The unit/API/WebSocket/CLI/cluster suite on SQLite and its PostgreSQL run side by side: both spend most
 * of their time waiting (on timers, sockets and the database), so together they take little longer than the
 * slower one. The SQLite run prints as it goes; the PostgreSQL run's output follows once it is done. Exits
 * non-zero when either fails.
 */
const sqlite = Bun.spawn([process.execPath, "test", "--path-ignore-patterns=tests/hardening/**"], { stdio: ["inherit", "inherit", "inherit"] });
const postgres = Bun.spawn([process.execPath, "scripts/test-postgres.ts"], { stdio: ["ignore", "pipe", "pipe"] });
const output = Promise.all([new Response(postgres.stdout).text(), new Response(postgres.stderr).text()]);

const sqliteCode = await sqlite.exited;
const [out, err] = await output;
const postgresCode = await postgres.exited;
process.stdout.write(out);
process.stderr.write(err);
console.log(`\nSQLite run: ${sqliteCode === 0 ? "passed" : `FAILED (exit ${sqliteCode})`}; PostgreSQL run: ${postgresCode === 0 ? "passed" : `FAILED (exit ${postgresCode})`}`);
process.exit(sqliteCode !== 0 ? sqliteCode : postgresCode);
export {};
