import { describe, expect, test } from "bun:test";
import { BANNED_MESSAGE, PASS_ENDED_MESSAGE } from "@contracts/notices";
import { donationsClosedReason } from "./donations-closed";

describe("donationsClosedReason", () => {
  test("a ban or a revoked pass closes donations with the reason; a kick, a dropped connection or an open chat do not", () => {
    expect(donationsClosedReason({ state: "closed", attempt: 0, removedWith: 4003, removedBecause: "Banned" })).toBe(BANNED_MESSAGE);
    expect(donationsClosedReason({ state: "closed", attempt: 0, removedWith: 4001, removedBecause: "Revoked" })).toBe(PASS_ENDED_MESSAGE);
    expect(donationsClosedReason({ state: "closed", attempt: 0, removedWith: 4001, removedBecause: "Kicked" })).toBeNull();
    expect(donationsClosedReason({ state: "closed", attempt: 3, removedWith: null })).toBeNull();
    expect(donationsClosedReason({ state: "open", attempt: 0, removedWith: null })).toBeNull();
  });
});
