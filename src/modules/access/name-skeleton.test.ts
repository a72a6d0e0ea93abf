import { describe, expect, test } from "bun:test";
import { RESERVED_USERNAMES } from "../../contracts/access.ts";
import { looksAlike, nameSkeleton } from "./name-skeleton.ts";

describe("name skeletons (Unicode TR39)", () => {
  const alike: [string, string, string][] = [
    ["bоss", "boss", "Cyrillic о"],
    ["ｂｏｓｓ", "boss", "full-width letters (NFKC)"],
    ["𝐛𝐨𝐬𝐬", "boss", "mathematical bold letters (NFKC)"],
    ["BOSS", "boss", "another case"],
    ["аdmin", "admin", "Cyrillic а"],
    ["mоdmike", "modmike", "Cyrillic о inside"],
    ["Rаvеn", "Raven", "Cyrillic а and е"],
    ["Ραul", "Paul", "Greek Ρ and α"],
    ["b0ss", "boss", "0 for o"],
    ["adm1n", "admin", "1 for i"],
    ["admln", "admin", "l for i"],
    ["ADMlN", "admin", "l for I"],
    ["rnodmike", "modmike", "rn for m"],
    ["vvolf", "wolf", "vv for w"],
    ["Ghоul 👻", "ghoul 👻", "an emoji kept, a Cyrillic о folded"],
  ];
  for (const [a, b, why] of alike) {
    test(`${JSON.stringify(a)} looks like ${JSON.stringify(b)} (${why})`, () => {
      expect(nameSkeleton(a)).toBe(nameSkeleton(b));
      expect(looksAlike(a, b)).toBe(true);
    });
  }

  const apart: [string, string][] = [
    ["boss", "bass"],
    ["Raven", "Ravens"],
    ["bóss", "boss"],
    ["mike", "mlkey"],
    ["owl", "ow"],
  ];
  for (const [a, b] of apart) {
    test(`${JSON.stringify(a)} and ${JSON.stringify(b)} stay apart`, () => {
      expect(looksAlike(a, b)).toBe(false);
    });
  }

  test("one skeleton for a name however it is composed (é as one character or e + accent)", () => {
    expect(nameSkeleton("Renée")).toBe(nameSkeleton("Rene\u0301e"));
  });

  test("every reserved name's look-alikes are caught by their skeleton", () => {
    const skeletons = new Set(RESERVED_USERNAMES.map(nameSkeleton));
    for (const fake of ["аdmin", "ADMlN", "ｓｔａｆｆ", "m0derator", "sуstem", "r00t", "οwner", "supp0rt", "rnod"]) {
      expect(skeletons.has(nameSkeleton(fake))).toBe(true);
    }
    expect(skeletons.has(nameSkeleton("Raven"))).toBe(false);
  });
});
