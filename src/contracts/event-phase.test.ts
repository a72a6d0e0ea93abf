import { describe, expect, test } from "bun:test";
import { derivePhase, phaseOnSale, type PhaseInputs } from "./event-phase.ts";

const START = Date.UTC(2030, 0, 15, 20);
const MIN = 60_000;
const base: PhaseInputs = {
  now: START - 60 * MIN,
  start: START,
  doorsOpen: true,
  openedAt: null,
  wentLiveAt: null,
  endedAt: null,
  latestEnd: null,
  publisher: "off",
  replayOffered: true,
  replayUntil: START + 7 * 24 * 60 * MIN,
  sellAfterNight: true,
  cancelledAt: null,
};
const at = (change: Partial<PhaseInputs>) => derivePhase({ ...base, ...change });

describe("the night's phase", () => {
  test("a cancelled event is closed, whatever else holds: before the start, with the doors open, with a publisher on", () => {
    const cancelledAt = START - 2 * 24 * 60 * MIN;
    expect(at({ cancelledAt })).toBe("closed");
    expect(at({ cancelledAt, doorsOpen: true, openedAt: START - 90 * MIN, publisher: "on" })).toBe("closed");
    expect(at({ cancelledAt, now: START + 5 * MIN, endedAt: cancelledAt })).toBe("closed");
    expect(phaseOnSale(at({ cancelledAt }), true)).toBe(false);
  });

  test("before the start: upcoming unless the doors were opened early or a publisher is live through them", () => {
    expect(at({})).toBe("upcoming");
    expect(at({ doorsOpen: false, publisher: "on" })).toBe("upcoming");
    expect(at({ openedAt: START - 90 * MIN })).toBe("preshow");
    expect(at({ publisher: "on" })).toBe("preshow");
    expect(at({ publisher: "unknown" })).toBe("upcoming");
  });

  test("from the start: live while the doors are open, a break once it went live and the publisher left, upcoming while closed", () => {
    const now = START + 5 * MIN;
    expect(at({ now })).toBe("live");
    expect(at({ now, publisher: "on", wentLiveAt: START })).toBe("live");
    expect(at({ now, wentLiveAt: START })).toBe("break");
    expect(at({ now, wentLiveAt: START, publisher: "unknown" })).toBe("live");
    expect(at({ now, doorsOpen: false })).toBe("upcoming");
    // A break lasts: hours later it is still one.
    expect(at({ now: START + 10 * 60 * MIN, wentLiveAt: START })).toBe("break");
  });

  test("after the end: the replay while offered, ended while it is not, closed after its window; a latest end ends it by itself", () => {
    const now = START + 3 * 60 * MIN;
    expect(at({ now, endedAt: START + 2 * 60 * MIN, doorsOpen: false })).toBe("replay");
    expect(at({ now, endedAt: START + 2 * 60 * MIN, replayOffered: false })).toBe("ended");
    expect(at({ now: base.replayUntil, endedAt: START + 2 * 60 * MIN })).toBe("closed");
    expect(at({ now, latestEnd: START + 2 * 60 * MIN, wentLiveAt: START, publisher: "on" })).toBe("replay");
    expect(at({ now, latestEnd: START + 4 * 60 * MIN, wentLiveAt: START, publisher: "on" })).toBe("live");
  });

  test("passes are sold until the night is over; after it only to an open replay the owner sells", () => {
    for (const phase of ["upcoming", "preshow", "live", "break"] as const) expect(phaseOnSale(phase, false)).toBe(true);
    expect(phaseOnSale("replay", true)).toBe(true);
    expect(phaseOnSale("replay", false)).toBe(false);
    expect(phaseOnSale("ended", true)).toBe(false);
    expect(phaseOnSale("closed", true)).toBe(false);
  });
});
