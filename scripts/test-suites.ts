/**
 * The unit/API/WebSocket/CLI/cluster suite on SQLite, its PostgreSQL run and the hardening suite, side by
 * side: each spends most of its time waiting (on timers, sockets and the database), so together they take
 * little longer than the slowest. The SQLite run prints as it goes; the other two runs' output follows once
 * each is done. Exits non-zero when any fails, and ends with the names of the tests that failed (so the
 * last lines of a long log say what broke).
 *
 * Each run also spreads its files over two workers: one file mostly waits (on timers, sockets and the
 * database), so two at a time halve a run on two cores. Every test app has its own port, data directory
 * and database, so files in parallel never meet.
 *
 * The RTMP flood test runs last, alone: it measures that a viewer's parts keep coming and /readyz keeps
 * answering on time while the server is flooded, which only means something when the flood is all that
 * shares the two cores with it.
 */
const PARALLEL = "--parallel=2";
const ALONE = "tests/ingest/rtmp-flood.test.ts";

/** Lines that name a failed test in Bun's report (each once: the report names it again at its end). */
const failures = (text: string): string[] => [...new Set(text.split("\n").filter((line) => line.startsWith("(fail)")))];

/** A stream copied to one of ours as it comes, and kept. */
const copyAndKeep = async (from: ReadableStream<Uint8Array>, to: NodeJS.WriteStream): Promise<string> => {
  const decoder = new TextDecoder();
  let kept = "";
  for await (const chunk of from) {
    to.write(chunk);
    kept += decoder.decode(chunk, { stream: true });
  }
  return kept + decoder.decode();
};
const sqlite = Bun.spawn([process.execPath, "test", PARALLEL, "--path-ignore-patterns=tests/hardening/**", `--path-ignore-patterns=${ALONE}`], {
  stdio: ["ignore", "pipe", "pipe"],
});
const sqliteOutput = Promise.all([copyAndKeep(sqlite.stdout, process.stdout), copyAndKeep(sqlite.stderr, process.stderr)]);

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

const [sqliteOut, sqliteErr] = await sqliteOutput;
const results: { name: string; code: number; failed: string[] }[] = [{ name: "SQLite run", code: await sqlite.exited, failed: failures(sqliteOut + sqliteErr) }];
for (const { name, run, output } of others) {
  const [out, err] = await output;
  results.push({ name, code: await run.exited, failed: failures(out + err) });
  process.stdout.write(`\n--- ${name} ---\n`);
  process.stdout.write(out);
  process.stderr.write(err);
}
process.stdout.write(`\n--- ${ALONE}, alone ---\n`);
const alone = Bun.spawn([process.execPath, "test", ALONE], { stdio: ["ignore", "pipe", "pipe"] });
const [aloneOut, aloneErr] = await Promise.all([copyAndKeep(alone.stdout, process.stdout), copyAndKeep(alone.stderr, process.stderr)]);
results.push({ name: "RTMP flood test", code: await alone.exited, failed: failures(aloneOut + aloneErr) });
for (const { name, failed } of results) {
  if (failed.length > 0) console.log(`\n${name}, failed:\n${failed.join("\n")}`);
}
console.log(`\n${results.map(({ name, code }) => `${name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`}`).join("; ")}`);
process.exit(results.find(({ code }) => code !== 0)?.code ?? 0);
export {};
