import { describe, expect, test } from "bun:test";
import { matchesSearch } from "./search";

describe("matchesSearch", () => {
  test("an empty or blank query matches everything", () => {
    expect(matchesSearch("", "SKP-ABC")).toBe(true);
    expect(matchesSearch("   ", null)).toBe(true);
  });

  test("matches a substring anywhere, whatever the case", () => {
    expect(matchesSearch("abc", "SKP-XABCY")).toBe(true);
    expect(matchesSearch("SKP-x", "skp-xyz")).toBe(true);
    expect(matchesSearch("zzz", "SKP-XABCY")).toBe(false);
  });

  test("matches when any one field matches and skips missing fields", () => {
    expect(matchesSearch("example.com", "Mara", null, "mara@example.com")).toBe(true);
    expect(matchesSearch("mar", undefined, "Mara")).toBe(true);
    expect(matchesSearch("ghost", "Mara", null)).toBe(false);
  });
});
