import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Features do not import each other: what two features share lives in components/, hooks/ or lib/. */
const FEATURES = import.meta.dir;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature a module path lies in, or null outside features/. */
function featureOf(path: string): string | null {
  const inside = relative(FEATURES, path);
  return inside.startsWith("..") || !inside.includes(sep) ? null : inside.split(sep)[0]!;
}

test("no feature imports another feature", () => {
  const crossings: string[] = [];
  for (const file of sourceFiles(FEATURES)) {
    const own = featureOf(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      const target = specifier!.startsWith("@/features/")
        ? join(FEATURES, specifier!.slice("@/features/".length))
        : specifier!.startsWith(".")
          ? resolve(dirname(file), specifier!)
          : null;
      const other = target ? featureOf(target) : null;
      if (other && other !== own) crossings.push(`${relative(FEATURES, file)} → ${specifier}`);
    }
  }
  expect(crossings).toEqual([]);
});
