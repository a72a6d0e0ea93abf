import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * A stylesheet, once loaded, styles the whole page, so every class and animation name is global. Each
 * feature styles only classes under its own prefix (`.home-…`, `.stream-…`), so no two features' rules can
 * ever meet, and the shared styles (styles/, components/, app/) use none of those prefixes.
 */
const FEATURE_PREFIXES: Record<string, string> = {
  access: "access",
  "admin-access-codes": "codes",
  "admin-audit": "audit",
  "admin-auth": "auth",
  "admin-banned-users": "banned",
  "admin-dashboard": "dash",
  "admin-moderation": "moderation",
  "admin-payments": "ledger",
  "admin-recordings": "recordings",
  "admin-security": "security",
  "admin-settings": "settings",
  "admin-team": "team",
  "admin-users": "users",
  "checkout-success": "checkout",
  home: "home",
  livestream: "stream",
  "not-found": "not-found",
  "test-access": "test-access",
};

const SRC = join(import.meta.dir, "..");
const FEATURES = join(SRC, "features");

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith(".css") ? [path] : [];
  });
}

interface Stylesheet {
  /** Each selector of each style rule, inside at-rules too. */
  selectors: string[];
  keyframes: string[];
}

/** The selectors and @keyframes names of a stylesheet (enough CSS parsing for our own files). */
export function readStylesheet(css: string): Stylesheet {
  const sheet: Stylesheet = { selectors: [], keyframes: [] };
  const walk = (text: string) => {
    let at = 0;
    while (at < text.length) {
      const open = text.indexOf("{", at);
      if (open < 0) return;
      const prelude = text
        .slice(at, open)
        .trim()
        .replace(/^[^{}]*;/, "")
        .trim();
      let depth = 1;
      let close = open + 1;
      for (; close < text.length && depth > 0; close++) {
        if (text[close] === "{") depth++;
        else if (text[close] === "}") depth--;
      }
      const body = text.slice(open + 1, close - 1);
      if (prelude.startsWith("@keyframes")) sheet.keyframes.push(prelude.slice("@keyframes".length).trim());
      else if (/^@(media|supports|container|layer)\b/.test(prelude)) walk(body);
      else if (!prelude.startsWith("@")) sheet.selectors.push(...splitSelectors(prelude));
      at = close;
    }
  };
  walk(css.replace(/\/\*[\s\S]*?\*\//g, ""));
  return sheet;
}

/** "a, b:is(c, d)" → ["a", "b:is(c, d)"]: commas inside brackets do not split. */
function splitSelectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const char = list[i];
    if (char === "(" || char === "[") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (char === "," && depth === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts.filter(Boolean);
}

/** The class names a selector names (attribute values left out). */
export function classesOf(selector: string): string[] {
  return [...selector.replace(/\[[^\]]*\]/g, "").matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]!);
}

const inNamespace = (name: string, prefix: string) => name === prefix || name.startsWith(`${prefix}-`);
const featureOf = (name: string) => Object.entries(FEATURE_PREFIXES).find(([, prefix]) => inNamespace(name, prefix))?.[0];

const sharedFiles = ["styles", "components", "app"].flatMap((dir) => cssFiles(join(SRC, dir)));
const shared = sharedFiles.map((path) => ({ path: relative(SRC, path), sheet: readStylesheet(readFileSync(path, "utf8")) }));
const sharedClasses = new Set(shared.flatMap(({ sheet }) => sheet.selectors.flatMap(classesOf)));

describe("feature styles cannot collide", () => {
  test("every feature has a prefix, and no prefix lies inside another's", () => {
    const features = readdirSync(FEATURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(features.filter((feature) => !FEATURE_PREFIXES[feature])).toEqual([]);
    const prefixes = Object.values(FEATURE_PREFIXES);
    for (const prefix of prefixes) expect(prefixes.filter((other) => inNamespace(prefix, other))).toEqual([prefix]);
  });

  for (const [feature, prefix] of Object.entries(FEATURE_PREFIXES)) {
    test(`${feature}: every rule names a .${prefix}-… class, and every animation is ${prefix}-…`, () => {
      for (const path of cssFiles(join(FEATURES, feature))) {
        const { selectors, keyframes } = readStylesheet(readFileSync(path, "utf8"));
        const where = relative(SRC, path);
        expect({ where, unscoped: selectors.filter((s) => !classesOf(s).some((name) => inNamespace(name, prefix))) }).toEqual({ where, unscoped: [] });
        const foreign = selectors.flatMap(classesOf).filter((name) => !inNamespace(name, prefix) && !sharedClasses.has(name));
        expect({ where, foreign }).toEqual({ where, foreign: [] });
        expect({ where, keyframes: keyframes.filter((name) => !inNamespace(name, prefix)) }).toEqual({ where, keyframes: [] });
      }
    });
  }

  test("the shared styles use no feature's prefix", () => {
    for (const { path, sheet } of shared) {
      const taken = [...sheet.selectors.flatMap(classesOf), ...sheet.keyframes].filter((name) => featureOf(name));
      expect({ path, taken }).toEqual({ path, taken: [] });
    }
  });

  test("no animation name is defined twice", () => {
    const names = [...sharedFiles, ...cssFiles(FEATURES)].flatMap((path) => readStylesheet(readFileSync(path, "utf8")).keyframes);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });
});

test("the stylesheet reader finds selectors inside media queries and keyframes names", () => {
  const sheet = readStylesheet(`/* .x { } */ .a, .b:is(.c, .d) { color: red; } @media (min-width: 1px) { .e[data-x=".f"] { gap: 0; } } @keyframes g { from { opacity: 0; } }`);
  expect(sheet.selectors).toEqual([".a", ".b:is(.c, .d)", '.e[data-x=".f"]']);
  expect(sheet.keyframes).toEqual(["g"]);
  expect(classesOf('.e[data-x=".f"]')).toEqual(["e"]);
});
