/**
 * The unit/API/WebSocket/CLI/cluster suite on SQLite, its PostgreSQL run and the hardening suite, side by
 * side: each spends most of its time waiting (on timers, sockets and the database), so together they take
 * little longer than the slowest. The SQLite run prints as it goes; the other two runs' output follows once
 * each is done. Exits non-zero when any fails.
 *
 * Each run also spreads its files over two workers: one file mostly waits (on timers, sockets and the
 * database), so two at a time halve a run on two cores. Every test app has its own port, data directory
 * and database, so files in parallel never meet.
 */
const PARALLEL = "--parallel=2";
const sqlite = Bun.spawn([process.execPath, "test", PARALLEL, "--path-ignore-patterns=tests/hardening/**"], { stdio: ["inherit", "inherit", "inherit"] });
/** A run whose output is kept until it is done (stdout and stderr, read as it goes so it never blocks). */
interface BufferedRun {
  name: string;
  run: Bun.Subprocess<"ignore", "pipe", "pipe">;
  output: Promise<[string, string]>;
}
const buffered = (name: string, args: string[]): BufferedRun => {
  const run = Bun.spawn([process.execPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const output = Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text()]);
  return { name, run, output } satisfies BufferedRun;
};
const others = [buffered("PostgreSQL run", ["scripts/test-postgres.ts", PARALLEL]), buffered("Hardening suite", ["test", PARALLEL, "tests/hardening"])];

const codes: [string, number][] = [["SQLite run", await sqlite.exited]];
for (const { name, run, output } of others) {
  const [out, err] = await output;
  codes.push([name, await run.exited]);
  process.stdout.write(`\n--- ${name} ---\n`);
  process.stdout.write(out);
  process.stderr.write(err);
}
console.log(`\n${codes.map(([name, code]) => `${name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`}`).join("; ")}`);
process.exit(codes.find(([, code]) => code !== 0)?.[1] ?? 0);
export {};
