import { describe, expect, test } from "bun:test";
import { eventPhase, eventStart, streamIsLive } from "./event-status";

describe("event status", () => {
  const settings = { startDate: "2030-01-15T01:30:00.000Z", isActive: true };

  test("before the start the event is upcoming, after it live while switched on, else due", () => {
    expect(eventPhase(settings, false)).toBe("upcoming");
    expect(eventPhase(settings, true)).toBe("live");
    expect(eventPhase({ ...settings, isActive: false }, true)).toBe("due");
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
