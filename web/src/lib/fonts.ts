import creepster from "@fontsource/creepster/files/creepster-latin-400-normal.woff2";
import specialElite from "@fontsource/special-elite/files/special-elite-latin-400-normal.woff2";

/**
 * Registers the bundled display fonts. They are loaded as separate cacheable files rather than from CSS,
 * where the bundler would inline them as base64 and bloat every page's stylesheet.
 * Until they arrive the text is drawn in stand-ins of the same metrics (theme.css), so the swap does not
 * move the page.
 */
export function registerFonts(): void {
  if (typeof FontFace === "undefined") return;
  const faces = [
    new FontFace("Creepster", `url(${creepster}) format("woff2")`, { display: "swap" }),
    new FontFace("Special Elite", `url(${specialElite}) format("woff2")`, { display: "swap" }),
  ];
  for (const face of faces) document.fonts.add(face);
}
