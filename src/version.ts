import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import pkg from "../package.json";

/** Set by scripts/build.ts (`--define`) to the tag or commit the executable was built from. */
declare const DREADCAST_BUILD_VERSION: string | undefined;

/**
 * The version a name from `git describe --tags --always --dirty` stands for: a tag as it is (without its
 * leading v), a bare commit as package.json's version with the commit after it.
 */
export function versionFromDescribe(described: string, packageVersion: string): string {
  const text = described.trim();
  if (!text) return packageVersion;
  if (/^[0-9a-f]{7,40}(-dirty)?$/.test(text)) return `${packageVersion}+g${text}`;
  return text.replace(/^v(?=\d)/, "");
}

/** `git describe` of the checkout this file is in, or null where there is none (the executable, a copy). */
export function describeCheckout(dir: string): string | null {
  try {
    const result = spawnSync("git", ["describe", "--tags", "--always", "--dirty"], { cwd: dir, encoding: "utf8", timeout: 2000 });
    return result.status === 0 ? result.stdout.trim() : null;
  } catch {
    return null;
  }
}

function currentVersion(): string {
  if (typeof DREADCAST_BUILD_VERSION === "string" && DREADCAST_BUILD_VERSION) return DREADCAST_BUILD_VERSION;
  const described = describeCheckout(resolve(import.meta.dir, ".."));
  return described ? versionFromDescribe(described, pkg.version) : pkg.version;
}

/** This build's version: printed at start, by --version, in /readyz and the metrics. */
export const VERSION = currentVersion();
