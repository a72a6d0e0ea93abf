/**
 * ESLint: the recommended rules of ESLint and typescript-eslint (with type information, from the tsconfig
 * each file belongs to), the promise rules that catch a missing `await`, and the boundaries between the
 * parts of the code. Formatting is Prettier's (`npm run format`), not ESLint's.
 */
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const root = dirname(fileURLToPath(import.meta.url));

/**
 * Imports that cross a boundary on purpose, each with its reason: `file` (from the repository's root)
 * may import `target` (the resolved path, without extension).
 */
const boundaryExceptions = [
  // The player's LL-HLS parser is tested against the playlists the server's ingest really writes.
  { file: "web/src/lib/ll-hls-playlist.test.ts", target: "src/media/hls/playlist" },
];

/** Where an import points, from the repository's root; null for a package. */
function importTarget(file, specifier) {
  let path;
  if (specifier.startsWith(".")) path = resolve(dirname(file), specifier);
  else if (specifier.startsWith("@/")) path = resolve(root, "web/src", specifier.slice(2));
  else if (specifier.startsWith("@contracts/")) path = resolve(root, "src/contracts", specifier.slice("@contracts/".length));
  else return null;
  return relative(root, path)
    .replace(/\\/g, "/")
    .replace(/\.(tsx?|mjs|js)$/, "");
}

/** Why `file` may not import `target`, or null when it may. */
function boundaryBroken(file, target) {
  if (file.startsWith("web/") && !target.startsWith("web/") && !target.startsWith("src/contracts/")) {
    return "the web app imports from the server only src/contracts (as @contracts/…)";
  }
  const feature = /^web\/src\/features\/([^/]+)\//;
  const [fromFeature, toFeature] = [feature.exec(file)?.[1], feature.exec(target)?.[1]];
  if (fromFeature && toFeature && fromFeature !== toFeature) {
    return `features do not import each other (${fromFeature} → ${toFeature}): move what both use to components/, hooks/ or lib/`;
  }
  if (file.startsWith("src/media/") && target.startsWith("src/") && !target.startsWith("src/media/")) {
    return "the media core knows no feature: src/media imports only src/media";
  }
  const module = /^src\/modules\/([^/]+)\/(.*)$/;
  const [from, to] = [module.exec(file), module.exec(target)];
  // The ingest packages a stream and the replay keeps and plays it: both read the media core, neither the other.
  const apart = new Set(["ingest", "replay"]);
  if (from && to && from[1] !== to[1] && apart.has(from[1]) && apart.has(to[1])) {
    return `the ingest and the replay do not import each other (${from[1]} → ${to[1]}/${to[2]}): what both need belongs in src/media`;
  }
  if (from && to && from[1] !== to[1] && (to[2] === "index" || /routes/.test(to[2].split("/").pop()))) {
    return `a module does not reach into another module's routes (${from[1]} → ${to[1]}/${to[2]}): import its service`;
  }
  return null;
}

const importBoundaries = {
  meta: { type: "problem", docs: { description: "Keeps imports within the boundaries between web, server, features and modules." }, schema: [] },
  create(context) {
    const file = relative(root, context.filename).replace(/\\/g, "/");
    const check = (source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const target = importTarget(context.filename, source.value);
      if (target === null || boundaryExceptions.some((e) => e.file === file && e.target === target)) return;
      const broken = boundaryBroken(file, target);
      if (broken) context.report({ node: source, message: `"${source.value}": ${broken}.` });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.type === "TSLiteralType" ? node.argument.literal : node.source),
    };
  },
};

/** JavaScript that no tsconfig checks: the benchmarks' scripts, the test kit's .mjs (typed by its .d.mts), this file. */
const untypedJs = ["eslint.config.js", "prettier.config.js", "scripts/**/*.mjs", "tests/support/*.mjs"];

export default tseslint.config(
  {
    ignores: ["node_modules/", "dist/", "data/", "test-results/", "src/web-assets.generated.ts", "tests/fixtures/", "web/public/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    plugins: { dreadcast: { rules: { "import-boundaries": importBoundaries } } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "dreadcast/import-boundaries": "error",
      // A promise left unawaited: the work may run after the transaction it belongs to, or its failure
      // goes unnoticed. `void promise` drops one on purpose.
      // Node's test() and describe() return promises that its runner awaits itself.
      "@typescript-eslint/no-floating-promises": ["error", { allowForKnownSafeCalls: [{ from: "package", package: "node:test", name: ["test", "describe", "it", "suite"] }] }],
      // A promise where a value or a plain callback was meant. JSX attributes are left out: a form's
      // `onSubmit={form.handleSubmit(submit)}` hands React an async handler, which react-hook-form settles.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      // `_name` is a parameter an interface or a callback's position needs; `{ a, ...rest }` leaves `a` out.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // An async method with nothing to await implements an asynchronous interface (the solo cluster, the
      // embed providers, the demo payments) the same way the engines that do wait implement it.
      "@typescript-eslint/require-await": "off",
      // The chat filter, the relay and the ingest strip or refuse control characters on purpose.
      "no-control-regex": "off",
      // An option or a callback declared as a method is passed on without its object; none of them use `this`.
      "@typescript-eslint/unbound-method": "off",
      // `try { … } catch {}`: the failure is the expected case (an answer that is not JSON stays text).
      "no-empty": ["error", { allowEmptyCatch: true }],
      // It takes for unnecessary the `!` that noUncheckedIndexedAccess needs and the casts that pick an
      // overload: its fixes break the type check.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // Awaiting what is not a promise is harmless; the rule also takes Promise.all over optional promises,
      // and Bun's expect(…).rejects matchers (typed void, though each returns a promise), for mistakes.
      "@typescript-eslint/await-thenable": "off",
      // A failure caught to be told in words (a passkey prompt's, a test's verdict) is not needed as a cause.
      "preserve-caught-error": "off",
      // A caught failure or an abort's reason passed on as it is (`reject(signal.reason)`) keeps its own type.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // The screens take TanStack Query's hooks from web/src/lib/query.ts, which hands them the library loaded
    // with the query cache (one split-off file); its types may come from the package itself.
    files: ["web/src/**/*.ts", "web/src/**/*.tsx"],
    ignores: ["web/src/lib/query.ts", "web/src/lib/query-client.ts", "web/src/lib/query-cache.tsx", "web/src/**/*.test.ts", "web/src/**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "@tanstack/react-query", message: "Import the hooks from @/lib/query (types with `import type`).", allowTypeImports: true }] },
      ],
    },
  },
  {
    // Tests and benchmarks read JSON answers and parsed frames as they come, and check them with expect():
    // typing every one (about 700 places) would say nothing the assertions do not.
    files: ["tests/**", "scripts/**", "web/src/**/*.test.ts", "src/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
      // Assertion and log messages print whatever they are given: an array, an unknown error, a value.
      "@typescript-eslint/restrict-template-expressions": "off",
      "@typescript-eslint/restrict-plus-operands": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    // JavaScript: TypeScript checks the names and types of the browser tests (tsconfig.e2e.json), and
    // JSDoc types leave much as `any`, which the unsafe-any rules would flag on every line.
    files: ["**/*.js", "**/*.mjs"],
    rules: {
      "no-undef": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: untypedJs,
    ...tseslint.configs.disableTypeChecked,
  },
);
