import { z } from "zod";
import { TEXT_LIMITS, tooLong } from "./text-limits.ts";
import { embedUrl } from "./settings.ts";

/** The stream source an admin chooses, and the playback address a viewer is given. Shared by server and web. */

export const STREAM_KINDS = ["embed", "mux", "cloudflare", "bunny", "hls", "ingest"] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];

/** The fields of each kind that are secrets: accepted on PUT, never returned (the view says only whether one is set). */
export const SECRET_FIELDS = { embed: [], mux: ["signingKey"], cloudflare: ["privateKey"], bunny: ["tokenKey"], hls: [], ingest: [] } as const;

const BEGIN_PEM = /^-----BEGIN (RSA )?PRIVATE KEY-----\s+[A-Za-z0-9+/=\s]+-----END (RSA )?PRIVATE KEY-----$/;

function decodeBase64(text: string): string | null {
  const compact = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  try {
    return atob(compact);
  } catch {
    return null;
  }
}

function isRsaJwk(text: string): boolean {
  try {
    const jwk = JSON.parse(text) as Record<string, unknown>;
    return jwk.kty === "RSA" && ["n", "e", "d"].every((k) => typeof jwk[k] === "string");
  } catch {
    return false;
  }
}

/** A private key as a provider hands it out: a PEM, a base64 PEM, an RSA JWK, or a base64 JWK. Its text in one of the first and third forms, or null. */
export function privateKeyText(input: string): string | null {
  const text = input.trim();
  if (BEGIN_PEM.test(text)) return text;
  if (text.startsWith("{")) return isRsaJwk(text) ? text : null;
  const decoded = decodeBase64(text)?.trim();
  if (decoded === undefined) return null;
  if (BEGIN_PEM.test(decoded)) return decoded;
  return decoded.startsWith("{") && isRsaJwk(decoded) ? decoded : null;
}

const id = (label: string, pattern: RegExp, hint: string) =>
  z.string().trim().min(1, `${label} is required`).max(TEXT_LIMITS.streamId, tooLong(label, TEXT_LIMITS.streamId)).regex(pattern, `${label} ${hint}`);

/** Empty or absent keeps the key already saved for this kind. */
const secret = (label: string, check: (value: string) => boolean, hint: string) =>
  z
    .string()
    .max(TEXT_LIMITS.streamSecret, tooLong(label, TEXT_LIMITS.streamSecret))
    .optional()
    .refine((value) => !value?.trim() || check(value), `${label} ${hint}`);

const privateKey = (label: string) => secret(label, (v) => privateKeyText(v) !== null, "is not a PEM, a base64 PEM or a JWK private key");

export const originUrl = z
  .string()
  .trim()
  .min(1, "Origin URL is required")
  .max(TEXT_LIMITS.address, tooLong("Origin URL", TEXT_LIMITS.address))
  .refine((value) => {
    try {
      const url = new URL(value);
      return ["http:", "https:"].includes(url.protocol) && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "Origin URL must be an http:// or https:// address without a user name or password")
  .refine((value) => URL.canParse(value) && new URL(value).pathname.endsWith(".m3u8"), "Origin URL must be the address of an HLS playlist (ending in .m3u8)");

const watermark = z.boolean().optional();

/** PUT /api/admin/stream-source. `watermark` absent: on for the signed and relay kinds, off for a plain embed. */
export const streamSourceBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("embed"), embedUrl, watermark }),
  z.object({
    kind: z.literal("mux"),
    playbackId: id("Playback ID", /^[A-Za-z0-9]+$/, "may only contain letters and digits"),
    signingKeyId: id("Signing key ID", /^[A-Za-z0-9]+$/, "may only contain letters and digits"),
    signingKey: privateKey("Signing key"),
    watermark,
  }),
  z.object({
    kind: z.literal("cloudflare"),
    customerCode: id("Customer code", /^[a-z0-9]+$/, "is the part after customer- in your Stream address (lower-case letters and digits)"),
    videoUid: id("Video or live input UID", /^[a-f0-9]{32}$/, "is 32 hexadecimal characters"),
    keyId: id("Key ID", /^[a-f0-9]{32}$/, "is 32 hexadecimal characters"),
    privateKey: privateKey("Private key"),
    watermark,
  }),
  z.object({
    kind: z.literal("bunny"),
    libraryId: id("Library ID", /^\d+$/, "is a number"),
    videoId: id("Video ID", /^[A-Za-z0-9-]+$/, "may only contain letters, digits and -"),
    tokenKey: secret("Token authentication key", (v) => /^[A-Za-z0-9-]{8,128}$/.test(v.trim()), "is 8 to 128 letters, digits or -"),
    watermark,
  }),
  z.object({ kind: z.literal("hls"), originUrl, watermark }),
  // Built-in (OBS): OBS publishes to this server; its address and key are in GET /api/admin/ingest.
  z.object({ kind: z.literal("ingest"), watermark }),
]);
export type StreamSourceBody = z.infer<typeof streamSourceBody>;

/** GET/PUT /api/admin/stream-source: the saved source with every secret replaced by `<name>Set`. */
export type StreamSourceView = { watermark: boolean } & (
  | { kind: "embed"; embedUrl: string }
  | { kind: "mux"; playbackId: string; signingKeyId: string; signingKeySet: boolean }
  | { kind: "cloudflare"; customerCode: string; videoUid: string; keyId: string; privateKeySet: boolean }
  | { kind: "bunny"; libraryId: string; videoId: string; tokenKeySet: boolean }
  | { kind: "hls"; originUrl: string }
  | { kind: "ingest" }
);

/** GET /api/stream/playback. `url` is "" while no stream is set up; fetch a fresh one before `expiresAt`. */
export interface StreamPlayback {
  /** "replay": the night is over and its recordings play (a VOD playlist at `url`). */
  kind: StreamKind | "replay";
  url: string;
  /** ISO 8601 */
  expiresAt: string;
  /** The viewer's mark over the player (chat name and the end of their code), or null when switched off. */
  watermark: string | null;
  /** kind "replay": when the first kept session began (ISO 8601) and how many seconds the replay plays. */
  startedAt?: string;
  duration?: number;
  /** The replay's window closed at this time (ISO 8601): the page says the replay has ended, and when. */
  replayEndedAt?: string;
  /** The night was ended at this time (ISO 8601) and there is no replay to play: being prepared (`replayComing`), or none. */
  nightEndedAt?: string;
  replayComing?: boolean;
  /** With `nightEndedAt`: the owner cancelled the event (at that time) before it went live. */
  cancelled?: boolean;
}

/** The publisher's stream as measured by the built-in ingest. */
export interface IngestPublisher {
  /** ISO 8601: when the current publish began. */
  since: string;
  video: { codec: string; width: number; height: number; fps: number | null; bitrateKbps: number | null; keyframeIntervalS: number | null } | null;
  audio: { codec: string; sampleRate: number; channels: number; bitrateKbps: number | null } | null;
}

/** GET /api/admin/ingest: what OBS is set up with (but the key, revealed on its own), and what it sends. */
export interface IngestView {
  /** OBS's "Server" field, e.g. rtmp://live.example.com:1935/live. */
  rtmpUrl: string;
  /** The same over TLS, or null when the server has no certificate (--tls-cert). */
  rtmpsUrl: string | null;
  /** A publisher is sending now. */
  live: boolean;
  /** Null while no one publishes. */
  publisher: IngestPublisher | null;
  /** What to change in OBS, in plain words (empty when all is well). */
  warnings: string[];
  /** Publishes refused lately on this instance (a second publisher, a wrong server address, codecs), newest first. */
  refusals: IngestRefusal[];
}

/** A burst of refused publishes: from one address, for one reason. */
export interface IngestRefusal {
  address: string;
  reason: string;
  /** ISO 8601: the first and the last refusal of the burst. */
  at: string;
  lastAt: string;
  count: number;
}

/**
 * OBS's "Stream Key": POST /api/admin/ingest/reveal-key (behind a fresh proof, and logged), and
 * POST /api/admin/ingest/rotate-key's new key (the publisher that used the old one is dropped).
 */
export interface StreamKeyAnswer {
  streamKey: string;
}
