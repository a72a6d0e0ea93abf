import type { DeviceFingerprint } from "@contracts/access";
import { importFresh } from "@/lib/app-version";
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

export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return (await importFresh(() => import("@/lib/sha256-sync"))).sha256HexSync(text);
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

/** The graphics names, read once a page: a WebGL context costs tens of milliseconds on a slow phone, and they do not change. */
let webgl: { webglVendor: string; webglRenderer: string } | undefined;

/** The graphics vendor and renderer: the unmasked names where the browser gives them, else the generic ones. */
function readWebgl(): { webglVendor: string; webglRenderer: string } {
  return (webgl ??= askWebgl());
}

function askWebgl(): { webglVendor: string; webglRenderer: string } {
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
