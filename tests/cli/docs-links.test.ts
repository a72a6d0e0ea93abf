import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const GUIDES = [
  "README.md",
  "CONTRIBUTING.md",
  "deploy/README.md",
  ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

test("every link between the README, the guides and the code leads somewhere (the file, and its heading)", () => {
  const broken: string[] = [];
  for (const guide of GUIDES) {
    const text = readFileSync(join(ROOT, guide), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const file = path ? resolve(dirname(join(ROOT, guide)), path) : join(ROOT, guide);
      if (!existsSync(file)) broken.push(`${guide}: ${target} (no such file)`);
      else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor)) broken.push(`${guide}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
  expect(GUIDES.length).toBeGreaterThan(15);
});
