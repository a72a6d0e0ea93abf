import type { KeyObject } from "node:crypto";
import type { StreamKind } from "../../contracts/stream.ts";
import { signRs256 } from "./keys.ts";

/** How long a playback address lives: long enough to watch a while, short enough that a shared one dies soon. */
export const PLAYBACK_TTL_MS = 60 * 60 * 1000;
/** Where the relayed HLS stream is served. */
export const RELAY_PREFIX = "/api/stream/hls/";
/** Where the built-in ingest's LL-HLS is served. */
export const INGEST_PREFIX = "/api/stream/live/";
/** While nothing is published, pages ask again this soon (and are told at once when it starts). */
const OFFLINE_RECHECK_MS = 30_000;

/** What a page showing this source must allow beyond its own origin. */
export interface CspSources {
  frame: string[];
  media: string[];
  worker: string[];
}

/** One stream source: the address each viewer gets, and what the page needs to play it. */
export interface PlaybackProvider {
  readonly kind: StreamKind;
  /** An address for one viewer, valid until `expiresAt` (epoch ms); "" while nothing is set up. */
  playback(now: number, publicHost: string): Promise<{ url: string; expiresAt: number }>;
  csp(): Promise<CspSources>;
}

const NO_SOURCES: CspSources = { frame: [], media: [], worker: [] };
const seconds = (ms: number) => Math.floor(ms / 1000);
const frameOnly = (origin: string): CspSources => ({ frame: [origin], media: [], worker: [] });

const TWITCH_PLAYERS = new Set(["player.twitch.tv", "embed.twitch.tv", "clips.twitch.tv"]);

/** A plain embed (YouTube, Twitch, Vimeo, an Owncast page): anyone with the address can watch. */
export class EmbedProvider implements PlaybackProvider {
  readonly kind = "embed";
  constructor(private readonly embedUrl: () => Promise<string>) {}

  async playback(now: number, publicHost: string) {
    const expiresAt = now + PLAYBACK_TTL_MS;
    const raw = await this.embedUrl();
    if (!raw) return { url: "", expiresAt };
    const url = new URL(raw);
    // Twitch refuses to play unless the embedding site's host is one of the `parent`s.
    if (TWITCH_PLAYERS.has(url.hostname) && !url.searchParams.getAll("parent").includes(publicHost)) url.searchParams.append("parent", publicHost);
    return { url: url.href, expiresAt };
  }

  async csp(): Promise<CspSources> {
    const raw = await this.embedUrl();
    return raw && URL.canParse(raw) ? frameOnly(new URL(raw).origin) : NO_SOURCES;
  }
}

/** Mux signed playback: RS256 tokens for the video (`aud` "v") and its thumbnail (`aud` "t"). */
export class MuxProvider implements PlaybackProvider {
  readonly kind = "mux";
  constructor(private readonly f: { playbackId: string; signingKeyId: string; key: KeyObject }) {}

  async playback(now: number) {
    const expiresAt = now + PLAYBACK_TTL_MS;
    const token = (aud: string) => signRs256(this.f.signingKeyId, { sub: this.f.playbackId, aud, exp: seconds(expiresAt) }, this.f.key);
    const url = `https://player.mux.com/${this.f.playbackId}?playback-token=${token("v")}&thumbnail-token=${token("t")}`;
    return { url, expiresAt };
  }

  async csp(): Promise<CspSources> {
    return frameOnly("https://player.mux.com");
  }
}

/** Cloudflare Stream signed URLs: the token replaces the video UID in the iframe address. */
export class CloudflareProvider implements PlaybackProvider {
  readonly kind = "cloudflare";
  constructor(private readonly f: { customerCode: string; videoUid: string; keyId: string; key: KeyObject }) {}

  async playback(now: number) {
    const expiresAt = now + PLAYBACK_TTL_MS;
    // A minute of slack on `nbf` for a viewer whose clock is a little behind Cloudflare's.
    const claims = { sub: this.f.videoUid, kid: this.f.keyId, exp: seconds(expiresAt), nbf: seconds(now) - 60 };
    const token = signRs256(this.f.keyId, claims, this.f.key);
    return { url: `${this.origin()}/${token}/iframe`, expiresAt };
  }

  private origin() {
    return `https://customer-${this.f.customerCode}.cloudflarestream.com`;
  }

  async csp(): Promise<CspSources> {
    return frameOnly(this.origin());
  }
}

/** Bunny Stream embed token authentication: SHA-256 of key, video id and expiry. */
export class BunnyProvider implements PlaybackProvider {
  readonly kind = "bunny";
  constructor(private readonly f: { libraryId: string; videoId: string; tokenKey: string }) {}

  async playback(now: number) {
    const expiresAt = now + PLAYBACK_TTL_MS;
    const expires = seconds(expiresAt);
    const token = new Bun.CryptoHasher("sha256").update(`${this.f.tokenKey}${this.f.videoId}${expires}`).digest("hex");
    return { url: `https://iframe.mediadelivery.net/embed/${this.f.libraryId}/${this.f.videoId}?token=${token}&expires=${expires}`, expiresAt };
  }

  async csp(): Promise<CspSources> {
    return frameOnly("https://iframe.mediadelivery.net");
  }
}

/** dreadcast's own relay of an HLS origin: the page plays our path, which checks the session on every request. */
export class HlsRelayProvider implements PlaybackProvider {
  readonly kind = "hls";
  constructor(private readonly originUrl: string) {}

  async playback(now: number) {
    const name = new URL(this.originUrl).pathname.split("/").pop()!;
    return { url: `${RELAY_PREFIX}${name}`, expiresAt: now + PLAYBACK_TTL_MS };
  }

  async csp(): Promise<CspSources> {
    // hls.js feeds the video through a MediaSource (a blob: address) and transmuxes in a worker it makes from a blob.
    return { frame: [], media: ["'self'", "blob:"], worker: ["'self'", "blob:"] };
  }
}

/** The built-in ingest: OBS publishes to this server, whose LL-HLS the page plays from our path, checked per request like the relay. */
export class IngestProvider implements PlaybackProvider {
  readonly kind = "ingest";
  constructor(private readonly watchable: () => boolean) {}

  async playback(now: number) {
    // No publisher: nothing to play, and the page shows the stream's offline state until one comes.
    if (!this.watchable()) return { url: "", expiresAt: now + OFFLINE_RECHECK_MS };
    return { url: `${INGEST_PREFIX}index.m3u8`, expiresAt: now + PLAYBACK_TTL_MS };
  }

  async csp(): Promise<CspSources> {
    return { frame: [], media: ["'self'", "blob:"], worker: ["'self'", "blob:"] };
  }
}
