/**
 * The LL-HLS packager of one stream: a `MediaSink` any input feeds (its segmenter cuts fMP4 parts and
 * segments into a bounded in-memory window) and what the routes ask of it — the media and multivariant
 * playlists with blocking reload, init segments, segments and parts by their relative names, and the
 * publisher's figures. A publisher that leaves (`end`) leaves the playlist for a reconnect; `close` drops it.
 */
import { BLOCKING_WAIT_MS } from "../../../http/timeouts.ts";
import type { AudioConfig, AudioFrame, MediaSink, StreamMetadata, VideoConfig, VideoFrame } from "../../../media/stream.ts";
import { Waiters } from "./blocking.ts";
import { audioCodecString, videoCodecString } from "../../../media/codecs/codec-strings.ts";
import { measureFigures, type PublisherFigures } from "./figures.ts";
import { renderMediaPlaylist, renderMultivariantPlaylist } from "../../../media/hls/playlist.ts";
import { Segmenter } from "./segmenter.ts";
import { parsePartName, SegmentWindow, type Segment } from "./window.ts";

export type { PublisherFigures } from "./figures.ts";

export interface PackagerOptions {
  /** The fixed part duration bound, ms (100–2000; default 334: ten frames at 30 fps). */
  partTargetMs?: number;
  /** A segment is cut at the first keyframe after this many ms (default 1,000). */
  segmentMinMs?: number;
  /**
   * The target duration, ms, rounded up to whole seconds and fixed for the stream's life (default 2,000):
   * without a keyframe a segment is cut a little past it, and none rounds above it.
   */
  segmentMaxMs?: number;
  /** Complete segments kept (default 12, so that a delta update has some to skip; never fewer than three target durations of them). */
  windowSegments?: number;
  /** Of those, at most the last this many keep their parts (default 3)… */
  partWindowSegments?: number;
  /** …and only those ending within this many ms of the playlist's end (default three target durations). */
  partWindowMs?: number;
  /** Bound on the bytes held (default 64 MiB); the oldest segments go first. */
  maxBytes?: number;
  /** How long a blocking request is held at most (default 3 × the target duration). */
  blockingTimeoutMs?: number;
  /** The wall clock (ms since the epoch), for program date-time. */
  now?: () => number;
}

export type PlaylistResult =
  /** 200 with the playlist. */
  | { status: "ok"; body: string }
  /** 400: malformed or too far in the future (the LL-HLS limits). */
  | { status: "bad-request"; reason: string }
  /** 503: nothing to answer within the bound (no stream yet, or the asked part did not come). */
  | { status: "not-yet" }
  /** 404: the stream was closed. */
  | { status: "gone" };

export interface PlaylistRequest {
  /** `_HLS_msn`. */
  msn?: number;
  /** `_HLS_part` (only with `msn`). */
  part?: number;
  /** Appended as `?query` to every URI in the playlist. */
  query?: string;
  /** `_HLS_skip=YES` (or `v2`): a delta update. */
  skip?: boolean;
}

export class Packager implements MediaSink {
  private readonly window: SegmentWindow;
  private readonly waiters = new Waiters();
  private readonly segmenter: Segmenter;
  private readonly partTargetMs: number;
  private readonly blockingTimeoutMs: number | undefined;
  private closed = false;

  constructor(options: PackagerOptions = {}) {
    this.partTargetMs = Math.round(Math.min(2000, Math.max(100, options.partTargetMs ?? 334)));
    const segmentMinMs = Math.max(this.partTargetMs, options.segmentMinMs ?? 1000);
    this.blockingTimeoutMs = options.blockingTimeoutMs;
    const segmentMaxMs = Math.max(segmentMinMs, options.segmentMaxMs ?? 2000);
    const targetSeconds = Math.ceil(segmentMaxMs / 1000);
    this.window = new SegmentWindow({
      segments: Math.max(2, options.windowSegments ?? 12),
      minSeconds: 3 * targetSeconds,
      partSegments: Math.max(1, options.partWindowSegments ?? 3),
      partSeconds: (options.partWindowMs ?? 3 * targetSeconds * 1000) / 1000,
      maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    });
    this.segmenter = new Segmenter(this.window, {
      partTargetMs: this.partTargetMs,
      segmentMinMs,
      segmentMaxMs,
      now: options.now ?? Date.now,
      onChange: () => this.waiters.notify(),
    });
  }

  /** PART-TARGET, seconds: fixed for the life of the packager. */
  get partTarget(): number {
    return this.partTargetMs / 1000;
  }

  /** EXT-X-TARGETDURATION, whole seconds, fixed for the stream's life. */
  get targetDuration(): number {
    return this.segmenter.targetDuration;
  }

  /** A publisher is sending. */
  /** Told of each complete segment with its init segment (the recording of the publish session). */
  set onSegment(listener: ((segment: Segment, init: Uint8Array) => void) | null) {
    this.window.onComplete = listener;
  }

  get isLive(): boolean {
    return this.segmenter.live;
  }

  /** At least one complete segment is held: a player can start. */
  get ready(): boolean {
    return this.window.complete.length > 0;
  }

  // ---- MediaSink: what the input hands over ----

  metadata(meta: StreamMetadata): void {
    this.segmenter.metadata(meta);
  }
  videoConfig(config: VideoConfig): void {
    this.segmenter.videoConfig(config);
  }
  audioConfig(config: AudioConfig): void {
    this.segmenter.audioConfig(config);
  }
  video(frame: VideoFrame): void {
    this.segmenter.video(frame);
  }
  audio(frame: AudioFrame): void {
    this.segmenter.audio(frame);
  }
  /** The publisher left: what is held is written out; the playlist stays for a reconnect. */
  end(reason: string): void {
    this.segmenter.end(reason);
  }

  /** Drops the stream: everything held is freed, waiting requests answered "gone", later input ignored. */
  close(): void {
    this.closed = true;
    this.segmenter.close();
    this.window.clear();
    this.waiters.cancelAll();
  }

  // ---- what the routes ask ----

  /**
   * The media playlist, with LL-HLS blocking reload: given `msn` (and `part`), answers once the playlist
   * holds that segment (or that part of it), at most after the blocking bound ("not-yet").
   */
  async playlist(request: PlaylistRequest = {}): Promise<PlaylistResult> {
    if (this.closed) return { status: "gone" };
    const { msn, part } = request;
    if (part !== undefined && msn === undefined) return { status: "bad-request", reason: "_HLS_part without _HLS_msn" };
    if (msn !== undefined && !(Number.isSafeInteger(msn) && msn >= 0)) return { status: "bad-request", reason: "bad _HLS_msn" };
    if (part !== undefined && !(Number.isSafeInteger(part) && part >= 0)) return { status: "bad-request", reason: "bad _HLS_part" };
    if (msn !== undefined && this.tooFarAhead(msn, part)) return { status: "bad-request", reason: "_HLS_msn/_HLS_part too far ahead" };
    const satisfied = () => this.closed || (this.ready && (msn === undefined || this.holds(msn, part)));
    const timeoutMs = this.blockingTimeoutMs ?? this.blockingBoundMs();
    const ok = satisfied() || (await this.waiters.wait(satisfied, timeoutMs));
    if (this.closed) return { status: "gone" };
    if (!ok) return { status: "not-yet" };
    return { status: "ok", body: this.rendered(request.query, request.skip === true) };
  }

  /** Every viewer asks for the same playlist several times a second: it is rendered once per change of the window. */
  private readonly lastRendered: ({ changes: number; query: string | undefined; text: string } | null)[] = [null, null];

  /** The full playlist and its delta update are each rendered once per change of the window. */
  private rendered(query: string | undefined, skip: boolean): string {
    const { changes } = this.window;
    const last = this.lastRendered[skip ? 1 : 0];
    if (last && last.changes === changes && last.query === query) return last.text;
    const text = renderMediaPlaylist(this.window.snapshot(this.segmenter.targetDuration, this.partTarget), query, skip);
    this.lastRendered[skip ? 1 : 0] = { changes, query, text };
    return text;
  }

  private holds(msn: number, part: number | undefined): boolean {
    const current = this.window.current;
    if (current && msn === current.msn) return part !== undefined && current.parts.length > part;
    return msn < this.window.nextMsn;
  }

  /** The LL-HLS limits: more than two segments past the last complete one, or parts past the advance limit. */
  private tooFarAhead(msn: number, part: number | undefined): boolean {
    const openMsn = this.window.current?.msn ?? this.window.nextMsn;
    if (msn > openMsn + 1) return true;
    if (part === undefined) return false;
    const advanceLimit = this.partTarget < 1 ? Math.floor(3 / this.partTarget) : 3;
    const known = msn === openMsn ? (this.window.current?.parts.length ?? 0) : msn > openMsn ? 0 : Infinity;
    return part > known + advanceLimit;
  }

  /** The multivariant playlist pointing at `mediaPlaylistUri`, or null before any publisher sent a config. */
  multivariantPlaylist(mediaPlaylistUri: string): string | null {
    if (this.closed || (!this.segmenter.lastVideo && !this.segmenter.lastAudio)) return null;
    const figures = this.figures();
    const codecs: string[] = [];
    if (this.segmenter.lastVideo) codecs.push(videoCodecString(this.segmenter.lastVideo));
    // A session without sound carries a silent track: the playlist names it.
    const audio = this.segmenter.segmentAudio;
    if (audio) codecs.push(audioCodecString(audio));
    const measuredKbps = (figures.video?.kbps ?? 0) + (figures.audio?.kbps ?? 0);
    const statedKbps = (this.segmenter.meta.videoBitrateKbps ?? 0) + (this.segmenter.meta.audioBitrateKbps ?? 0);
    const kbps = Math.max(measuredKbps, statedKbps) || 3000;
    return renderMultivariantPlaylist({
      bandwidth: kbps * 1000 * 1.2,
      averageBandwidth: measuredKbps ? measuredKbps * 1000 : undefined,
      codecs,
      width: this.segmenter.lastVideo?.width || this.segmenter.meta.width,
      height: this.segmenter.lastVideo?.height || this.segmenter.meta.height,
      frameRate: figures.video?.fps ?? this.segmenter.meta.framerate,
      uri: mediaPlaylistUri,
    });
  }

  getInit(name: string): Uint8Array | null {
    return this.window.getInit(name);
  }

  getSegment(name: string): Uint8Array | null {
    return this.window.getSegment(name);
  }

  getPart(name: string): Uint8Array | null {
    const parsed = parsePartName(name);
    return parsed ? (this.window.findPart(parsed.msn, parsed.index)?.bytes ?? null) : null;
  }

  /**
   * A part's bytes; the part announced by the preload hint (being written) is waited for until complete,
   * at most the blocking bound. Null: not held (or the wait ran out).
   */
  async awaitPart(name: string, options: { timeoutMs?: number } = {}): Promise<Uint8Array | null> {
    const parsed = parsePartName(name);
    if (!parsed || this.closed) return null;
    const found = () => this.window.findPart(parsed.msn, parsed.index);
    if (found()) return found()!.bytes;
    if (name !== this.window.preloadHint()) return null;
    const timeoutMs = options.timeoutMs ?? this.blockingTimeoutMs ?? this.blockingBoundMs();
    await this.waiters.wait(() => this.closed || found() !== null, timeoutMs);
    return this.closed ? null : (found()?.bytes ?? null);
  }

  /** What can be seen of the publisher's stream, measured over the window's segments of the latest session. */
  figures(): PublisherFigures {
    const { live, since, meta, lastVideo, lastAudio } = this.segmenter;
    return measureFigures(this.window, { live, since, meta, video: lastVideo, audio: lastAudio });
  }

  /** How long a blocking request is held: three target durations, as LL-HLS asks, but never past the HTTP server's own timeout. */
  private blockingBoundMs(): number {
    return Math.min(this.segmenter.targetDuration * 3000, BLOCKING_WAIT_MS);
  }

  /** Requests being held (blocking reloads, hinted parts). */
  get waiting(): number {
    return this.waiters.size;
  }
}
