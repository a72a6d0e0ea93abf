import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..");
const THEME = join(import.meta.dir, "theme.css");

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith(".css") ? [path] : [];
  });
}

/** A colour written out: #hex, rgb()/hsl() with numbers, or a named black or white. */
const RAW_COLOUR = /#[0-9a-f]{3,8}\b|\b(?:rgb|rgba|hsl|hsla)\(\s*[\d.]|(?<![\w-])(?:white|black)(?![\w-])/gi;

test("every colour comes from the theme: no stylesheet but theme.css writes one out", () => {
  const written = cssFiles(SRC)
    .filter((path) => path !== THEME)
    .flatMap((path) => {
      const css = readFileSync(path, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      return (css.match(RAW_COLOUR) ?? []).map((colour) => `${relative(SRC, path)}: ${colour}`);
    });
  expect(written).toEqual([]);
});
