import { describe, expect, test } from "bun:test";
import type { DeviceFingerprint } from "../../contracts/access.ts";
import { checkDeviceFingerprint } from "./fingerprint.ts";

const saved: DeviceFingerprint = {
  userAgent: "UA/1",
  screenResolution: "1920x1080",
  colorDepth: 24,
  timezone: "Europe/London",
  language: "en-GB",
  platform: "Linux x86_64",
  webglVendor: "Mesa",
  webglRenderer: "llvmpipe",
  deviceToken: "a".repeat(48),
  createdAt: "2025-01-01T00:00:00.000Z",
  fingerprint: "f".repeat(64),
};
const elsewhere: DeviceFingerprint = {
  ...saved,
  screenResolution: "390x844",
  platform: "iPhone",
  deviceToken: "b".repeat(48),
  fingerprint: "e".repeat(64),
};
const REGULAR = "SKP-AAAA-BBBB-CCCC-DDDD";

describe("checkDeviceFingerprint applies its eight rules in order", () => {
  const cases: { rule: number; name: string; saved: unknown; incoming: unknown; code?: string; allowed: boolean; updates: boolean }[] = [
    { rule: 1, name: "an SCP- code passes whatever the device", saved, incoming: elsewhere, code: "SCP-TEST-CODE-0000", allowed: true, updates: false },
    { rule: 1, name: "a MOD- code passes whatever the device", saved, incoming: elsewhere, code: "mod-lower-case-code", allowed: true, updates: false },
    { rule: 2, name: "no saved fingerprint passes and saves the new one", saved: null, incoming: elsewhere, allowed: true, updates: true },
    {
      rule: 2,
      name: "an incomplete first visit passes and binds the code to its device token",
      saved: null,
      incoming: { ...elsewhere, screenResolution: "" },
      allowed: true,
      updates: true,
    },
    { rule: 3, name: "a saved fingerprint without a device token (bound to nothing) passes", saved: { userAgent: "UA/1" }, incoming: elsewhere, allowed: true, updates: false },
    { rule: 7, name: "once bound, incomplete data from another device token is denied", saved, incoming: { ...elsewhere, screenResolution: "" }, allowed: false, updates: false },
    { rule: 7, name: "once bound, a fingerprint without a device token is denied", saved, incoming: { ...elsewhere, deviceToken: "" }, allowed: false, updates: false },
    {
      rule: 5,
      name: "once bound, incomplete data from the same device token passes and updates",
      saved,
      incoming: { ...elsewhere, screenResolution: "", deviceToken: saved.deviceToken },
      allowed: true,
      updates: true,
    },
    { rule: 4, name: "an exact fingerprint match passes", saved, incoming: { ...elsewhere, fingerprint: saved.fingerprint }, allowed: true, updates: false },
    { rule: 5, name: "the same device token passes and updates", saved, incoming: { ...elsewhere, deviceToken: saved.deviceToken }, allowed: true, updates: true },
    {
      rule: 6,
      name: "the same screen, colour depth, language, timezone and platform passes and updates",
      saved,
      incoming: { ...saved, userAgent: "UA/2", webglRenderer: "other", deviceToken: "c".repeat(48), fingerprint: "d".repeat(64) },
      allowed: true,
      updates: true,
    },
    {
      rule: 7,
      name: "the same traits do not pass when a trait is empty on both sides (bound by an incomplete first visit)",
      saved: { ...saved, screenResolution: "" },
      incoming: { ...saved, screenResolution: "", deviceToken: "c".repeat(48), fingerprint: "d".repeat(64) },
      allowed: false,
      updates: false,
    },
    { rule: 7, name: "a different device is denied", saved, incoming: elsewhere, allowed: false, updates: false },
    {
      rule: 7,
      name: "one differing trait (timezone) is enough to deny",
      saved,
      incoming: { ...saved, timezone: "Asia/Tokyo", deviceToken: "c".repeat(48), fingerprint: "d".repeat(64) },
      allowed: false,
      updates: false,
    },
    { rule: 8, name: "an unreadable saved fingerprint (error while comparing) passes", saved: "{not json", incoming: elsewhere, allowed: true, updates: false },
    {
      rule: 8,
      name: "a saved fingerprint of the wrong type (error while comparing) passes",
      saved: { ...saved, fingerprint: 42 },
      incoming: elsewhere,
      allowed: true,
      updates: false,
    },
  ];
  for (const c of cases) {
    test(`rule ${c.rule}: ${c.name}`, () => {
      const verdict = checkDeviceFingerprint(c.saved, c.incoming, c.code ?? REGULAR);
      expect(verdict.rule).toBe(c.rule as never);
      expect(verdict.allowed).toBe(c.allowed);
      if (c.updates) expect(verdict.update).toEqual(c.incoming as DeviceFingerprint);
      else expect(verdict.update).toBeUndefined();
    });
  }

  test("the saved fingerprint may be given as its stored JSON", () => {
    expect(checkDeviceFingerprint(JSON.stringify(saved), elsewhere, REGULAR)).toEqual({ allowed: false, ownDevice: false, rule: 7 });
    expect(checkDeviceFingerprint(JSON.stringify(saved), saved, REGULAR)).toEqual({ allowed: true, ownDevice: true, rule: 4 });
  });

  test("only the code's own device token (or the first visit, binding it) may rename its viewer", () => {
    const own = (savedPrint: unknown, incoming: unknown, code = REGULAR) => checkDeviceFingerprint(savedPrint, incoming, code).ownDevice;
    expect(own(null, elsewhere)).toBe(true);
    expect(own(saved, { ...elsewhere, deviceToken: saved.deviceToken.toUpperCase() })).toBe(true);
    expect(own(saved, saved)).toBe(true);
    // The exact fingerprint sent with another token, the same traits, a saved print bound to nothing, an unreadable one.
    expect(own(saved, { ...elsewhere, fingerprint: saved.fingerprint })).toBe(false);
    expect(own(saved, { ...saved, deviceToken: "c".repeat(48), fingerprint: "d".repeat(64) })).toBe(false);
    expect(own({ userAgent: "UA/1" }, elsewhere)).toBe(false);
    expect(own("{not json", elsewhere)).toBe(false);
    // Moderator codes have no device lock: one person on any device.
    expect(own(saved, elsewhere, "MOD-AAAA-BBBB-CCCC-DDDD")).toBe(true);
  });

  test("what the request sends is never an error that lets it through", () => {
    for (const incoming of [null, "text", 42, {}, { ...elsewhere, fingerprint: 42 }, { ...elsewhere, deviceToken: 7 }]) {
      expect(checkDeviceFingerprint(saved, incoming, REGULAR)).toEqual({ allowed: false, ownDevice: false, rule: 7 });
    }
  });
});
