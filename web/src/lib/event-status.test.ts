import { describe, expect, test } from "bun:test";
import type { EventPhase } from "@contracts/event-phase";
import { eventMoment, eventStart, nightIsOver } from "./event-status";
import { streamIsLive } from "@/features/livestream/utils/stream-is-live";

const night = { onAir: false, openedAt: null, wentLiveAt: null, endedAt: null, latestEnd: null, onSale: true, cancelledAt: null, cancelNote: "" };

describe("event status", () => {
  const settings = { startDate: "2030-01-15T01:30:00.000Z", isActive: true };
  const at = (phase: EventPhase, onAir = false) => ({ ...settings, phase, night: { ...night, onAir } });

  test("the home page follows the night's phase: the countdown, due, live only while on air, the break and after", () => {
    expect(eventMoment(at("upcoming"), false)).toBe("countdown");
    expect(eventMoment(at("upcoming"), true)).toBe("due");
    // A pre-show is live once something plays; the doors open with nothing on is still the wait.
    expect(eventMoment(at("preshow", true), false)).toBe("live");
    expect(eventMoment(at("preshow"), false)).toBe("countdown");
    expect(eventMoment(at("live", true), true)).toBe("live");
    expect(eventMoment(at("live"), true)).toBe("due");
    for (const phase of ["break", "ended", "replay", "closed"] as const) expect(eventMoment(at(phase), true)).toBe(phase);
  });

  test("settings without a phase (an older server) follow the switch", () => {
    expect(eventMoment(settings, false)).toBe("countdown");
    expect(eventMoment(settings, true)).toBe("live");
    expect(eventMoment({ ...settings, isActive: false }, true)).toBe("due");
  });

  test("the night is over once ended, in its replay and once closed", () => {
    expect(["upcoming", "preshow", "live", "break", "ended", "replay", "closed"].map((p) => nightIsOver(at(p as EventPhase)))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(nightIsOver(undefined)).toBe(false);
  });

  test("the start is read from the settings, or null when it cannot be", () => {
    expect(eventStart(settings)).toBe(Date.UTC(2030, 0, 15, 1, 30));
    expect(eventStart({ startDate: "soon" })).toBeNull();
  });

  test("the stream is live only while switched on and with something to play", () => {
    expect(streamIsLive(settings, "https://player.example/live")).toBe(true);
    expect(streamIsLive(settings, "")).toBe(false);
    expect(streamIsLive(settings, undefined)).toBe(false);
    expect(streamIsLive({ ...settings, isActive: false }, "https://player.example/live")).toBe(false);
    expect(streamIsLive(undefined, "https://player.example/live")).toBe(false);
  });
});
