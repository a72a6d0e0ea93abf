/**
 * Prettier: the code's own style — double quotes, semicolons, trailing commas, `(x) =>` — with its long
 * lines (most calls fit on one). `npm run format` writes it, `npm run format:check` checks it.
 */
export default {
  printWidth: 180,
  singleQuote: false,
  semi: true,
  trailingComma: "all",
  arrowParens: "always",
};
