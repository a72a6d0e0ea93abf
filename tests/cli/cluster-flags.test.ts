import { describe, expect, test } from "bun:test";
import { runCli } from "../support/cli.ts";
import { createTestDatabase, postgresAvailable } from "../support/postgres.ts";

const postgres = await postgresAvailable();

/** The cluster's flags at the command line: bad values are one line and exit 2; Redis away at start is exit 1. */
describe("cluster flags", () => {
  test("--redis-url without --database-url is refused: a cluster shares PostgreSQL", async () => {
    const { stderr, code } = await runCli(["--redis-url", "redis://127.0.0.1:6379"]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe("dreadcast: --redis-url needs --database-url: the instances of a cluster share the event's PostgreSQL database");
  });

  test.each([
    [["--redis-url", "http://cache:6379"], "--redis-url must be a redis:// or rediss:// URL, got 'http:'"],
    [["--redis-url", "not a url"], "--redis-url must be a redis:// URL, got 'not a url'"],
    [["--instance-name", "has space"], "--instance-name must be 1–63 letters, digits, dots, dashes or underscores, got 'has space'"],
    [["--instance-name", "-dash-first"], "--instance-name must be 1–63 letters, digits, dots, dashes or underscores, got '-dash-first'"],
    [["--metrics-token", "short"], "--metrics-token must be at least 16 characters with no spaces"],
    [["--metrics=maybe"], "--metrics must be true or false, got 'maybe'"],
  ])("%p is a usage error", async (args, message) => {
    const { stderr, code } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`dreadcast: ${message}`);
  });

  test("the password in a bad --redis-url is never printed", async () => {
    const { stderr, code } = await runCli(["--redis-url", "redis://user:hunter2@"]);
    expect(code).toBe(2);
    expect(stderr).not.toContain("hunter2");
  });

  test("--help lists the cluster and metrics flags", async () => {
    const { stdout } = await runCli(["--help"]);
    for (const flag of ["--redis-url URL", "--instance-name NAME", "--metrics ", "--metrics-token TOKEN"]) expect(stdout).toContain(flag);
    expect(stdout).toContain("[env DREADCAST_REDIS_URL]");
  });

  test("--redis-url without --secret-key is refused in one line, exit 2: the instances must share the key", async () => {
    const { stderr, code } = await runCli(["--database-url", "postgres://u@db.internal/dreadcast", "--redis-url", "redis://127.0.0.1:6379"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--redis-url needs --secret-key");
    const bad = await runCli(["--secret-key", "not-a-key"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--secret-key must be 32 bytes written as 64 hex digits or as base64");
  });

  test.skipIf(!postgres)(
    "Redis out of reach at start: one line naming it, exit 1, nothing left running",
    async () => {
      const db = await createTestDatabase("dreadcast_cli");
      try {
        const started = performance.now();
        const { stdout, stderr, code } = await runCli([
          "--port",
          "0",
          "--data-dir",
          "/tmp",
          "--database-url",
          db.url,
          "--redis-url",
          "redis://127.0.0.1:1",
          "--secret-key",
          "ab".repeat(32),
        ]);
        expect(code).toBe(1);
        expect(stderr.trim().split("\n")).toHaveLength(1);
        expect(stderr).toStartWith("dreadcast: cannot reach Redis at 127.0.0.1:1 (");
        expect(stdout).not.toContain("listening");
        expect(performance.now() - started).toBeLessThan(10_000);
      } finally {
        await db.drop();
      }
      // A process started and a database made and dropped: seconds on a busy machine.
    },
    20_000,
  );
});
