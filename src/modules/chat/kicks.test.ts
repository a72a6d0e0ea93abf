import { describe, expect, test } from "bun:test";
import { KickList } from "./kicks.ts";

describe("kicks", () => {
  test("hold the person by name (any case), by user and by code, until they run out", () => {
    let now = 1_000;
    const kicks = new KickList(() => now);
    kicks.keep({ username: "Bob", userId: 7, accessCodeId: 3, until: 61_000 });
    expect(kicks.until({ username: "bob", userId: null, accessCodeId: null })).toBe(61_000);
    expect(kicks.until({ username: "bob2", userId: 7, accessCodeId: null })).toBe(61_000);
    expect(kicks.until({ username: "bobby", userId: 9, accessCodeId: 3 })).toBe(61_000);
    expect(kicks.until({ username: "alice", userId: 8, accessCodeId: 4 })).toBe(0);
    now = 61_000;
    expect(kicks.until({ username: "bob2", userId: 7, accessCodeId: 3 })).toBe(0);
    expect(kicks.running()).toEqual([]);
  });

  test("keep the later end of two kicks of one person, and what either knew of them", () => {
    const kicks = new KickList(() => 0);
    kicks.keep({ username: "Bob", userId: null, accessCodeId: null, until: 90_000 });
    kicks.keep({ username: "bob", userId: 7, accessCodeId: 3, until: 60_000 });
    expect(kicks.running()).toEqual([{ username: "bob", userId: 7, accessCodeId: 3, until: 90_000 }]);
    expect(kicks.until({ username: "x", userId: null, accessCodeId: 3 })).toBe(60_000);
  });
});
