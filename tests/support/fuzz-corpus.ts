/**
 * The fuzzers' kept failures: a generated case that failed is written under tests/fixtures/fuzz/<suite>/
 * as JSON (named by a hash of what it holds, so the same failure is one file), and every run replays the
 * kept ones before it generates new cases. A failure found once is then tested for ever, whatever the seed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const FUZZ_CORPUS = resolve(import.meta.dir, "../fixtures/fuzz");

/** Keeps a failing case (a JSON value) for `suite`; answers the file it is in. */
export function keepFailure(suite: string, data: unknown, corpus = FUZZ_CORPUS): string {
  const text = `${JSON.stringify(data, null, 2)}\n`;
  const dir = join(corpus, suite);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`);
  if (!existsSync(file)) writeFileSync(file, text);
  return file;
}

/** The cases kept for `suite`, by file name, in a stable order. */
export function keptFailures<T>(suite: string, corpus = FUZZ_CORPUS): { name: string; data: T }[] {
  const dir = join(corpus, suite);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => ({ name, data: JSON.parse(readFileSync(join(dir, name), "utf8")) as T }));
}
