import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUN = process.execPath;

export { prng, type Rng } from "./prng.ts";

/** The seed of this run: HARDENING_SEED to replay one, else a fixed default so CI is repeatable. */
export function runSeed(fallback: number): number {
  const fromEnv = Number(process.env.HARDENING_SEED);
  return Number.isFinite(fromEnv) && process.env.HARDENING_SEED ? fromEnv : fallback;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `dreadcast-${prefix}-`));
}
