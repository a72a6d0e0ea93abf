import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { deviceFingerprintSchema } from "@contracts/access";
import { sha256HexSync } from "./sha256-sync";
import { buildFingerprint, deviceTokenFrom, fingerprintInput, newDeviceToken, sha256Hex, type DeviceTraits, type KeyValueStore } from "./fingerprint";

const traits: DeviceTraits = {
  userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)",
  screenResolution: "390x844",
  colorDepth: 24,
  timezone: "Europe/London",
  language: "en-GB",
  platform: "iPhone",
  webglVendor: "Apple Inc.",
  webglRenderer: "Apple GPU",
};

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (key) => data[key] ?? null, setItem: (key, value) => void (data[key] = value) };
}

const nodeSha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("SHA-256", () => {
  const samples = ["", "abc", "dreadcast", "x".repeat(55), "y".repeat(56), "z".repeat(64), "é👻 ünïcode", "a".repeat(1000)];

  test("crypto.subtle gives the standard digest", async () => {
    for (const text of samples) expect(await sha256Hex(text)).toBe(nodeSha256(text));
  });

  test("the plain-JS fallback (pages over plain http) gives the same digest at every padding boundary", () => {
    for (const text of samples) expect(sha256HexSync(text)).toBe(nodeSha256(text));
  });

  test("without crypto.subtle the fallback is loaded and hashes", async () => {
    const own = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
    Object.defineProperty(globalThis, "crypto", { value: { getRandomValues: crypto.getRandomValues.bind(crypto) }, configurable: true });
    try {
      expect(globalThis.crypto.subtle).toBeUndefined();
      for (const text of samples) expect(await sha256Hex(text)).toBe(nodeSha256(text));
    } finally {
      Object.defineProperty(globalThis, "crypto", own);
    }
  });
});

describe("device fingerprint", () => {
  test("has every field the server's schema names, and passes it", async () => {
    const fp = await buildFingerprint(traits, newDeviceToken(), new Date().toISOString());
    expect(Object.keys(fp).sort()).toEqual(
      ["userAgent", "screenResolution", "colorDepth", "timezone", "language", "platform", "webglVendor", "webglRenderer", "deviceToken", "createdAt", "fingerprint"].sort(),
    );
    expect(deviceFingerprintSchema.safeParse(fp).success).toBe(true);
  });

  test("fingerprint is the SHA-256 hex of the other fields", async () => {
    const fp = await buildFingerprint(traits, "ab".repeat(24), "2030-01-01T00:00:00.000Z");
    const { fingerprint, ...rest } = fp;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).toBe(nodeSha256(fingerprintInput(rest)));
  });

  test("the same device hashes the same; any changed field changes the hash", async () => {
    const token = newDeviceToken();
    const base = await buildFingerprint(traits, token, "2030-01-01T00:00:00.000Z");
    expect((await buildFingerprint({ ...traits }, token, "2030-01-01T00:00:00.000Z")).fingerprint).toBe(base.fingerprint);
    expect((await buildFingerprint({ ...traits, screenResolution: "1280x800" }, token, "2030-01-01T00:00:00.000Z")).fingerprint).not.toBe(base.fingerprint);
    expect((await buildFingerprint(traits, newDeviceToken(), "2030-01-01T00:00:00.000Z")).fingerprint).not.toBe(base.fingerprint);
    expect((await buildFingerprint(traits, token, "2030-01-02T00:00:00.000Z")).fingerprint).not.toBe(base.fingerprint);
  });
});

describe("device token", () => {
  test("is 24 random bytes as hex", () => {
    const token = newDeviceToken();
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(newDeviceToken()).not.toBe(token);
  });

  test("a new token is kept in both session and local storage as device_token", () => {
    const session = memoryStore();
    const local = memoryStore();
    const token = deviceTokenFrom(session, local);
    expect(session.data.device_token).toBe(token);
    expect(local.data.device_token).toBe(token);
    expect(deviceTokenFrom(session, local)).toBe(token);
  });

  test("a token kept in local storage survives a new tab (empty session storage)", () => {
    const local = memoryStore({ device_token: "c".repeat(48) });
    const session = memoryStore();
    expect(deviceTokenFrom(session, local)).toBe("c".repeat(48));
    expect(session.data.device_token).toBe("c".repeat(48));
  });

  test("a malformed stored token is replaced", () => {
    const local = memoryStore({ device_token: "not-a-token" });
    const token = deviceTokenFrom(memoryStore(), local);
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(local.data.device_token).toBe(token);
  });

  test("storage that throws still yields a token", () => {
    const broken: KeyValueStore = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(deviceTokenFrom(broken, null)).toMatch(/^[0-9a-f]{48}$/);
  });
});
