import creepster from "@fontsource/creepster/files/creepster-latin-400-normal.woff2";
import specialElite from "@fontsource/special-elite/files/special-elite-latin-400-normal.woff2";

/**
 * Registers the bundled display fonts. They are loaded as separate cacheable files rather than from CSS,
 * where the bundler would inline them as base64 and bloat every page's stylesheet.
 * Until they arrive the text is drawn in stand-ins of the same metrics (theme.css), so the swap does not
 * move the page. Both are fetched at once and swapped in together: the page is laid out again once, not
 * once for each font as it arrives (on a slow phone each of those is a long task). A font that cannot be
 * fetched is left out, its stand-in staying.
 */
export function registerFonts(): void {
  if (typeof FontFace === "undefined") return;
  const faces = [
    new FontFace("Creepster", `url(${creepster}) format("woff2")`, { display: "swap" }),
    new FontFace("Special Elite", `url(${specialElite}) format("woff2")`, { display: "swap" }),
  ];
  void Promise.allSettled(faces.map((face) => face.load())).then((outcomes) => {
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") document.fonts.add(faces[i]!);
    });
  });
}
