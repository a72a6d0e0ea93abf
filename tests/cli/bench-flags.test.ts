import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";

const RUN = resolve(import.meta.dir, "../../scripts/bench/run.ts");

/** The benchmark runner with these flags, stopped before it measures anything (a bad command line exits at once). */
function bench(...args: string[]) {
  const r = Bun.spawnSync([process.execPath, RUN, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

describe("npm run bench: its command line", () => {
  test("--help names every flag, --lighthouse-runs among them", () => {
    const r = bench("--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("--lighthouse-runs N (3: audits of each page, the median one being the figure)");
  });

  test.each([
    [["--lighthouse-runs", "0"], "--lighthouse-runs takes a whole number of at least 1, not 0"],
    [["--lighthouse-runs", "1.5"], "--lighthouse-runs takes a whole number of at least 1, not 1.5"],
    [["--viewers", "abc"], "a size must be a number of at least 0, not 'abc'"],
    [["--seconds=-3"], "a size must be a number of at least 0, not '-3'"],
    [["--only", "web,nope"], "unknown benchmark 'nope'"],
    [["--frob"], "Unknown option '--frob'"],
  ])("%p is refused with a reason and exit code 2, before anything runs", (args, reason) => {
    const r = bench(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`bench: ${reason}`);
    expect(r.err).toContain("(npm run bench -- --help)");
    expect(r.out).toBe("");
  });
});
