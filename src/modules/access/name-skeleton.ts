import unhomoglyph from "unhomoglyph";

/**
 * Look-alikes Unicode's table leaves apart that a chat's sans-serif font does not: a dotless-looking `i`
 * beside `l` and `1`, and `vv` for `w` (`rn` for `m` is in the table).
 */
const LATIN_LOOKALIKES: [RegExp, string][] = [
  [/i/g, "l"],
  [/vv/g, "w"],
];

/**
 * A name's skeleton (Unicode TR39 §4): two names with the same skeleton look alike, so one may not pose as
 * the other. NFKC first (full-width and styled letters become plain ones), then TR39's skeleton — NFD,
 * each character mapped to its prototype by Unicode's confusables table (`unhomoglyph`: Cyrillic `о`,
 * Greek `ο` and `0` are `O`, `1` and `I` are `l`, `m` is `rn`), NFD — taken again after lower-casing, as
 * names are compared without case, and the few Latin look-alikes above. Not for showing: a key to compare.
 */
export function nameSkeleton(name: string): string {
  const prototypes = unhomoglyph(name.normalize("NFKC").normalize("NFD")).normalize("NFD");
  let key = unhomoglyph(prototypes.toLowerCase()).normalize("NFD").toLowerCase();
  for (const [pattern, replacement] of LATIN_LOOKALIKES) key = key.replace(pattern, replacement);
  return key;
}

/** Whether two names look alike (the same skeleton). */
export function looksAlike(a: string, b: string): boolean {
  return nameSkeleton(a) === nameSkeleton(b);
}
