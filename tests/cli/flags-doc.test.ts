import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { FLAG_DOCS, FLAGS } from "../../src/config-flags.ts";
import { FLAGS_DOC_PATH, renderFlagsDoc } from "../../scripts/flags-doc.ts";

test("docs/flags.md is what src/config-flags.ts makes of it (npm run docs:flags writes it)", () => {
  expect(readFileSync(FLAGS_DOC_PATH, "utf8")).toBe(renderFlagsDoc());
});

test("every flag the server reads has its line in the reference, and the reference names no other", () => {
  expect(Object.keys(FLAG_DOCS).sort()).toEqual(Object.keys(FLAGS).sort());
  for (const name of Object.keys(FLAGS)) expect(renderFlagsDoc()).toContain(`\`--${name}`);
});
