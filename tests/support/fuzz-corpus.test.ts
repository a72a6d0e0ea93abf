import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keepFailure, keptFailures } from "./fuzz-corpus.ts";

test("a failure is kept once, under a name of its own, and read back in order", () => {
  const corpus = mkdtempSync(join(tmpdir(), "dreadcast-corpus-"));
  try {
    const a = keepFailure("http", { method: "POST", path: "/a" }, corpus);
    expect(keepFailure("http", { method: "POST", path: "/a" }, corpus)).toBe(a);
    keepFailure("http", { method: "GET", path: "/b" }, corpus);
    expect(readdirSync(join(corpus, "http"))).toHaveLength(2);
    const kept = keptFailures<{ path: string }>("http", corpus);
    expect(kept.map((k) => k.data.path).sort()).toEqual(["/a", "/b"]);
    expect(keptFailures("ws", corpus)).toEqual([]);
  } finally {
    rmSync(corpus, { recursive: true, force: true });
  }
});
