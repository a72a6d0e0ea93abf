const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** At most `max` characters as a reader counts them (an emoji is one, never cut in half), "…" ending a cut. */
export function clip(value: string, max: number): string {
  const parts = Array.from(graphemes.segment(value), (s) => s.segment);
  if (parts.length <= max) return value;
  return `${parts
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}

/** JSON that cannot end the `<script>` holding it: `<`, `>` and `&` (and JavaScript's line breaks) as \u escapes. */
export function scriptSafeJson(value: unknown): string {
  return scriptSafeText(JSON.stringify(value));
}

/** JSON text made the same way safe (those characters appear only inside its strings, where \u escapes mean the same). */
export function scriptSafeText(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
