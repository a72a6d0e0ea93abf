/**
 * Words made safe for one line (of a tag, a mail, a header): control characters, line breaks and runs of
 * space become one space.
 */
export function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ").trim();
}
