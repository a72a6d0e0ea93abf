import type { DeviceFingerprint } from "@contracts/access";
import { LOCAL_KEYS, SESSION_KEYS } from "@/lib/storage";

/**
 * The device fingerprint, which the server uses to hold a regular code to one device.
 * `fingerprint` is the SHA-256 (hex) of every other field; the device token is 24 random bytes kept in
 * both session and local storage, so it survives reloads and a cleared tab alike.
 */
export type DeviceTraits = Pick<DeviceFingerprint, "userAgent" | "screenResolution" | "colorDepth" | "timezone" | "language" | "platform" | "webglVendor" | "webglRenderer">;

/** The storage the token lives in (window.localStorage / sessionStorage, or a stand-in in tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const DEVICE_TOKEN_BYTES = 24;
const TOKEN_PATTERN = /^[0-9a-f]{48}$/i;
const UNKNOWN = "unknown";

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function newDeviceToken(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(DEVICE_TOKEN_BYTES)));
}

function safeGet(store: KeyValueStore | null, key: string): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function safeSet(store: KeyValueStore | null, key: string, value: string): void {
  try {
    store?.setItem(key, value);
  } catch {
    // storage unavailable (privacy mode, quota): the token lives for this page only
  }
}

/** This device's token: the one already kept in either store, else a new one; written back to both. */
export function deviceTokenFrom(session: KeyValueStore | null, local: KeyValueStore | null): string {
  const kept = [safeGet(session, SESSION_KEYS.deviceToken), safeGet(local, LOCAL_KEYS.deviceToken)].find((token): token is string => token !== null && TOKEN_PATTERN.test(token));
  const token = (kept ?? newDeviceToken()).toLowerCase();
  safeSet(session, SESSION_KEYS.deviceToken, token);
  safeSet(local, LOCAL_KEYS.deviceToken, token);
  return token;
}

// SHA-256 in plain JS for pages served over plain http on a LAN address, where crypto.subtle is absent.
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256HexSync(text: string): string {
  const data = new TextEncoder().encode(text);
  const bitLength = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      w[i] = (w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10))) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((value, i) => (h[i] = (h[i]! + value) >>> 0));
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
}

export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return sha256HexSync(text);
  return toHex(new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/** The hash input: the other fields in a fixed order, so the same device always hashes the same. */
export function fingerprintInput(fields: Omit<DeviceFingerprint, "fingerprint">): string {
  const { userAgent, screenResolution, colorDepth, timezone, language, platform, webglVendor, webglRenderer, deviceToken, createdAt } = fields;
  return JSON.stringify([userAgent, screenResolution, colorDepth, timezone, language, platform, webglVendor, webglRenderer, deviceToken, createdAt]);
}

export async function buildFingerprint(traits: DeviceTraits, deviceToken: string, createdAt: string): Promise<DeviceFingerprint> {
  const fields = { ...traits, deviceToken, createdAt };
  return { ...fields, fingerprint: await sha256Hex(fingerprintInput(fields)) };
}

const clip = (value: unknown, max: number) => (typeof value === "string" && value ? value.slice(0, max) : UNKNOWN);

/** The graphics vendor and renderer: the unmasked names where the browser gives them, else the generic ones. */
function readWebgl(): { webglVendor: string; webglRenderer: string } {
  try {
    const canvas = document.createElement("canvas");
    const gl = (canvas.getContext("webgl") ?? canvas.getContext("experimental-webgl")) as WebGLRenderingContext | null;
    if (!gl) return { webglVendor: UNKNOWN, webglRenderer: UNKNOWN };
    const debug = gl.getExtension("WEBGL_debug_renderer_info");
    const vendor: unknown = debug ? gl.getParameter(debug.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR);
    const renderer: unknown = debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    return { webglVendor: clip(vendor, 500), webglRenderer: clip(renderer, 500) };
  } catch {
    return { webglVendor: UNKNOWN, webglRenderer: UNKNOWN };
  }
}

/** What this browser says about the device. */
export function readDeviceTraits(): DeviceTraits {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  let timezone = UNKNOWN;
  try {
    timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || UNKNOWN;
  } catch {
    // no Intl time zone support
  }
  const colorDepth = Number.isInteger(screen.colorDepth) ? Math.min(Math.max(screen.colorDepth, 0), 1024) : 0;
  return {
    userAgent: clip(nav.userAgent, 1000),
    screenResolution: clip(`${screen.width}x${screen.height}`, 50),
    colorDepth,
    timezone: clip(timezone, 100),
    language: clip(nav.language, 100),
    platform: clip(nav.platform || nav.userAgentData?.platform, 200),
    ...readWebgl(),
  };
}

function storedFingerprint(): DeviceFingerprint | null {
  try {
    const raw = window.localStorage.getItem(LOCAL_KEYS.deviceFingerprint);
    return raw ? (JSON.parse(raw) as DeviceFingerprint) : null;
  } catch {
    return null;
  }
}

function storage(kind: "localStorage" | "sessionStorage"): KeyValueStore | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

/** Whether this browser already has a fingerprint saved (the /access page's "returning device" check). */
export function hasStoredFingerprint(): boolean {
  return storedFingerprint() !== null;
}

/**
 * This device's fingerprint, saved as `device_fingerprint`. The first creation time is kept while the
 * device token is the same, so an unchanged device keeps the same hash.
 */
export async function getDeviceFingerprint(): Promise<DeviceFingerprint> {
  const token = deviceTokenFrom(storage("sessionStorage"), storage("localStorage"));
  const saved = storedFingerprint();
  const createdAt = saved?.deviceToken === token && typeof saved.createdAt === "string" ? saved.createdAt : new Date().toISOString();
  const fingerprint = await buildFingerprint(readDeviceTraits(), token, createdAt);
  safeSet(storage("localStorage"), LOCAL_KEYS.deviceFingerprint, JSON.stringify(fingerprint));
  return fingerprint;
}
