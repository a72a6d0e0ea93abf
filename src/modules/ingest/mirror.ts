/**
 * The built-in ingest across a cluster. One instance holds the publisher (a lease in Redis naming it, the
 * address the others reach it at and the secret they must show); every other instance mirrors its LL-HLS
 * for its own viewers: the playlist pulled with blocking reloads at the publisher's pace, and each init,
 * part and segment fetched from it once, however many viewers ask, over an internal path that answers
 * nobody without the secret.
 */
import { LONGEST_WAIT_MS } from "../../http/timeouts.ts";
import { createHash, timingSafeEqual } from "node:crypto";
import type { IngestPublisher } from "../../contracts/stream.ts";
import type { PlaylistResult } from "./hls/packager.ts";

/** The lease the instance taking OBS's publish holds while it is live. */
export const PUBLISHER_LEASE = "ingest-publisher";
/** Where an instance serves its packager to the other instances (never to viewers; not under /api). */
export const INTERNAL_PREFIX = "/internal/ingest/";
/** The header carrying the publishing instance's internal secret. */
export const INTERNAL_HEADER = "x-dreadcast-internal";
/** The internal path's name for the publisher's figures (JSON), beside the stream's files. */
export const PUBLISHER_FIGURES = "publisher.json";
/** How long the publishing instance's figures are shown before they are asked again. */
const FIGURES_KEEP_MS = 2000;

/** The instance holding the publisher, as its lease names it. */
export interface Leader {
  instance: string;
  url: string;
  secret: string;
}

export function leaderValue(leader: Leader): string {
  return JSON.stringify({ i: leader.instance, u: leader.url, s: leader.secret });
}

/** The lease's value read back; null for anything this version did not write. */
export function parseLeader(raw: string | null): Leader | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { i?: unknown; u?: unknown; s?: unknown };
    if (typeof value.i !== "string" || typeof value.u !== "string" || typeof value.s !== "string") return null;
    if (!/^https?:\/\//.test(value.u)) return null;
    return { instance: value.i, url: value.u.replace(/\/+$/, ""), secret: value.s };
  } catch {
    return null;
  }
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether `given` is `secret` (compared as hashes, in constant time). */
export function secretMatches(secret: string, given: string | null): boolean {
  return given !== null && timingSafeEqual(digest(secret), digest(given));
}

/** How long a fetch from the publishing instance may take (a blocking reload waits there a few seconds at most). */
const FETCH_TIMEOUT_MS = LONGEST_WAIT_MS;
/** A blocking reload's answer is kept this long for viewers asking the same a moment later. */
const PLAYLIST_KEEP_MS = 1000;
/** The plain playlist (a player's first load) is fetched again after this long. */
const PLAIN_KEEP_MS = 200;
/** The multivariant playlist changes only with the publisher's codecs. */
const MULTIVARIANT_KEEP_MS = 2000;
/** The window of files kept: about a minute of parts and segments, and at most this many bytes. */
const MAX_FILES = 256;
const MAX_BYTES = 48 * 1024 * 1024;

/** Whether the instance at `url` is gone (its port refuses connections): a dead publisher's lease need not be waited out. */
export async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(url + INTERNAL_PREFIX, { signal: AbortSignal.timeout(1000), redirect: "manual" });
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    return code === "ConnectionRefused" || code === "ECONNREFUSED";
  }
}

/** A fetch shared by every viewer asking the same; the entry (not its promise) tells whether it is still the one kept. */
interface PendingPlaylist {
  result: Promise<PlaylistResult>;
}
interface PendingFile {
  bytes: Promise<Uint8Array | null>;
}

/** The publishing instance's figures being read, or read, until when they are kept. */
interface KeptFigures {
  value: Promise<IngestPublisher | null>;
  until: number;
}

/** Another instance's LL-HLS, served to this instance's viewers. */
export class IngestMirror {
  private readonly playlists = new Map<string, PendingPlaylist>();
  /** Oldest first: the window drops from the front. */
  private readonly files = new Map<string, PendingFile>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  private multivariant: { text: string; until: number } | null = null;
  private figures: KeptFigures | null = null;

  constructor(readonly leader: Leader) {}

  /**
   * What the publishing instance measures of its publisher (the admin's card here shows it too), asked at
   * most once every two seconds; null when it cannot be reached or has none.
   */
  publisher(): Promise<IngestPublisher | null> {
    const now = Date.now();
    if (this.figures && this.figures.until > now) return this.figures.value;
    const value = this.upstream(PUBLISHER_FIGURES)
      .then(async (response) => (response.status === 200 ? ((await response.json()) as IngestPublisher | null) : null))
      .catch(() => null);
    const kept: KeptFigures = { value, until: now + FIGURES_KEEP_MS };
    this.figures = kept;
    return value;
  }

  private upstream(name: string): Promise<Response> {
    return fetch(this.leader.url + INTERNAL_PREFIX + name, {
      headers: { [INTERNAL_HEADER]: this.leader.secret },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: "manual",
    });
  }

  /** The media playlist, blocking as the publisher's does; one request to it for all the viewers asking the same. */
  playlist(request: { msn?: number; part?: number; skip?: boolean }): Promise<PlaylistResult> {
    const directives = [
      ...(request.msn === undefined ? [] : [`_HLS_msn=${request.msn}`, ...(request.part === undefined ? [] : [`_HLS_part=${request.part}`])]),
      ...(request.skip ? ["_HLS_skip=YES"] : []),
    ];
    const query = directives.length ? `?${directives.join("&")}` : "";
    const pending = this.playlists.get(query);
    if (pending) return pending.result;
    // The entry, not its promise, says whether it is still the one kept.
    const entry: PendingPlaylist = { result: this.fetchPlaylist(query) };
    this.playlists.set(query, entry);
    void entry.result.then((result) => {
      const keep = result.status === "ok" ? (query ? PLAYLIST_KEEP_MS : PLAIN_KEEP_MS) : 0;
      setTimeout(() => {
        if (this.playlists.get(query) === entry) this.playlists.delete(query);
      }, keep).unref?.();
    });
    return entry.result;
  }

  private async fetchPlaylist(query: string): Promise<PlaylistResult> {
    try {
      const response = await this.upstream(`stream.m3u8${query}`);
      if (response.status === 200) return { status: "ok", body: await response.text() };
      const reason = response.status === 400 ? (((await response.json().catch(() => null)) as { error?: string } | null)?.error ?? "refused") : "";
      await response.body?.cancel().catch(() => {});
      if (response.status === 400) return { status: "bad-request", reason: reason.replace(/^Invalid playlist request: /, "") };
      if (response.status === 404) return { status: "gone" };
      return { status: "not-yet" };
    } catch {
      return { status: "not-yet" };
    }
  }

  /** The multivariant playlist, or null until the publisher's has one (or while it cannot be reached). */
  async multivariantPlaylist(): Promise<string | null> {
    if (this.multivariant && this.multivariant.until > Date.now()) return this.multivariant.text;
    try {
      const response = await this.upstream("index.m3u8");
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return null;
      }
      const text = await response.text();
      this.multivariant = { text, until: Date.now() + MULTIVARIANT_KEEP_MS };
      return text;
    } catch {
      return null;
    }
  }

  /** An init segment, segment or part, fetched once and kept while it is in the window; null when the publisher has none. */
  file(name: string): Promise<Uint8Array | null> {
    const held = this.files.get(name);
    if (held) return held.bytes;
    const entry: PendingFile = { bytes: this.fetchFile(name) };
    this.files.set(name, entry);
    void entry.bytes.then((bytes) => {
      if (this.files.get(name) !== entry) return;
      // Not there (yet): the next viewer asking tries again.
      if (!bytes) this.files.delete(name);
      else {
        this.sizes.set(name, bytes.byteLength);
        this.bytes += bytes.byteLength;
        this.trim();
      }
    });
    return entry.bytes;
  }

  private async fetchFile(name: string): Promise<Uint8Array | null> {
    try {
      const response = await this.upstream(name);
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return null;
      }
      return new Uint8Array(await response.arrayBuffer());
    } catch {
      return null;
    }
  }

  private trim(): void {
    for (const name of this.files.keys()) {
      if (this.files.size <= MAX_FILES && this.bytes <= MAX_BYTES) return;
      const size = this.sizes.get(name);
      // Still on its way: kept (it is the newest anyway).
      if (size === undefined) continue;
      this.files.delete(name);
      this.sizes.delete(name);
      this.bytes -= size;
    }
  }

  /** What it holds (for tests and the figures). */
  held(): { files: number; bytes: number } {
    return { files: this.files.size, bytes: this.bytes };
  }
}
