/**
 * The LL-HLS packager: takes one stream's codec configs and frames (a `MediaSink`, fed by any input) and
 * keeps fMP4 parts, segments and playlists of it in memory. Segments are cut at a video keyframe once
 * `segmentMinMs` is reached (audio-only streams: on time), parts at a fixed PART-TARGET. A publisher that
 * comes back (new configs after `end`, or changed configs) continues the same media sequence after an
 * EXT-X-DISCONTINUITY with a new init segment.
 */
import type { AudioConfig, AudioFrame, MediaSink, StreamMetadata, VideoConfig, VideoFrame } from "../media.ts";
import { Waiters } from "./blocking.ts";
import { audioCodecString, videoCodecString } from "./codecs.ts";
import { VIDEO_TIMESCALE, writeFragment, writeInit, type FragmentSample, type FragmentTrack, type InitTrack } from "./mp4.ts";
import { renderMediaPlaylist, renderMultivariantPlaylist } from "./playlist.ts";
import { initName, parsePartName, SegmentWindow } from "./window.ts";

export interface PackagerOptions {
  /** The fixed part duration bound, ms (100–2000; default 334: ten frames at 30 fps). */
  partTargetMs?: number;
  /** A segment is cut at the first keyframe after this many ms (default 1,000). */
  segmentMinMs?: number;
  /** …or at this many ms without a keyframe (default 10,000). */
  segmentMaxMs?: number;
  /** Complete segments kept (default 7). */
  windowSegments?: number;
  /** Of those, the last this many keep their parts (default 3). */
  partWindowSegments?: number;
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
  signal?: AbortSignal;
}

export interface PublisherFigures {
  live: boolean;
  /** Wall clock at which the current (or last) publish session started. */
  since: number | null;
  video: { codec: string; width: number; height: number; fps: number | null; keyframeIntervalS: number | null; kbps: number | null } | null;
  audio: { codec: string; sampleRate: number; channels: number; kbps: number | null } | null;
  /** What the publisher said of its stream. */
  metadata: StreamMetadata;
  mediaSequence: number;
  segments: number;
  bytesHeld: number;
}

interface Held {
  /** Decode time in the track's timescale. */
  time: number;
  compositionOffset: number;
  sync: boolean;
  data: Uint8Array;
}

type Completed = Held & { duration: number };

interface TrackState {
  init: InitTrack;
  timescale: number;
  held: Held | null;
  lastDuration: number;
}

interface Session {
  init: string;
  video: (TrackState & { init: { kind: "video"; config: VideoConfig } }) | null;
  audio: (TrackState & { init: { kind: "audio"; config: AudioConfig } }) | null;
  /** Added to the publisher's ms timestamps so the timeline continues across sessions. */
  offsetMs: number;
  firstDtsMs: number;
  wallAnchor: number;
  /** Timeline ms of the first frame, the program date-time's origin. */
  mediaAnchorMs: number;
  discontinuity: boolean;
  /** Video samples of the part being written, and audio samples waiting for their part. */
  partVideo: Completed[];
  partAudio: Completed[];
  audioQueue: Completed[];
  /** Duration of the part being written, in the lead track's timescale. */
  partTicks: number;
  /** Duration of the segment being written so far (its closed parts and the open one), lead ticks. */
  segmentTicks: number;
}

const AAC_FRAME_SAMPLES = 1024;
const AUDIO_QUEUE_LIMIT = 1_000;
const AUDIO_BEFORE_VIDEO_LIMIT = 100;
const EARLY_AUDIO_MS = 500;
const CLOCK_JUMP_MS = 5_000;
const CLOCK_BACK_MS = 500;
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

export class Packager implements MediaSink {
  private readonly partTargetMs: number;
  private readonly segmentMinMs: number;
  private readonly segmentMaxMs: number;
  private readonly blockingTimeoutMs: number | undefined;
  private readonly now: () => number;
  private readonly window: SegmentWindow;
  private readonly waiters = new Waiters();

  private videoConfigNext: VideoConfig | null = null;
  private audioConfigNext: AudioConfig | null = null;
  private session: Session | null = null;
  private audioBeforeVideo: AudioFrame[] = [];
  private sessions = 0;
  private fragmentSequence = 1;
  /** Where the timeline stands (ms) after the last session, so the next one continues from it. */
  private timelineEndMs = 0;
  private targetDurationS: number;
  private live = false;
  private closed = false;
  private since: number | null = null;
  private meta: StreamMetadata = {};
  private lastVideo: VideoConfig | null = null;
  private lastAudio: AudioConfig | null = null;

  constructor(options: PackagerOptions = {}) {
    this.partTargetMs = Math.round(Math.min(2000, Math.max(100, options.partTargetMs ?? 334)));
    this.segmentMinMs = Math.max(this.partTargetMs, options.segmentMinMs ?? 1000);
    this.segmentMaxMs = Math.max(this.segmentMinMs, options.segmentMaxMs ?? 10_000);
    this.blockingTimeoutMs = options.blockingTimeoutMs;
    this.now = options.now ?? Date.now;
    this.targetDurationS = Math.max(1, Math.ceil(this.segmentMinMs / 1000));
    this.window = new SegmentWindow({
      segments: Math.max(2, options.windowSegments ?? 7),
      partSegments: Math.max(1, options.partWindowSegments ?? 3),
      maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    });
  }

  /** PART-TARGET, seconds: fixed for the life of the packager. */
  get partTarget(): number {
    return this.partTargetMs / 1000;
  }

  get targetDuration(): number {
    return this.targetDurationS;
  }

  /** A publisher is sending. */
  get isLive(): boolean {
    return this.live;
  }

  /** At least one complete segment is held: a player can start. */
  get ready(): boolean {
    return this.window.complete.length > 0;
  }

  // ---- MediaSink ----

  metadata(meta: StreamMetadata): void {
    this.meta = { ...meta };
  }

  videoConfig(config: VideoConfig): void {
    if (this.closed) return;
    const running = this.session?.video?.init.config;
    if (this.session && !(running && sameVideo(running, config))) this.finishSession();
    this.videoConfigNext = config;
  }

  audioConfig(config: AudioConfig): void {
    if (this.closed) return;
    const running = this.session?.audio?.init.config;
    if (this.session && !(running && sameBytes(running.asc, config.asc))) this.finishSession();
    this.audioConfigNext = config;
  }

  video(frame: VideoFrame): void {
    if (this.closed) return;
    if (!this.session) {
      if (!this.videoConfigNext || !frame.keyframe) return;
      // Audio of the moments just before the first keyframe is kept: the timeline starts with it.
      const early = this.audioBeforeVideo.splice(0).filter((a) => a.dts >= frame.dts - EARLY_AUDIO_MS && a.dts <= frame.dts);
      this.startSession(Math.min(frame.dts, early[0]?.dts ?? frame.dts));
      for (const audio of early) this.audio(audio);
    }
    const session = this.session!;
    const track = session.video;
    if (!track) return;
    const dtsMs = this.timelineMs(session, track, frame.dts);
    if (dtsMs === null) return;
    const time = Math.max(Math.round(dtsMs * 90), track.held ? track.held.time + 1 : 0);
    const sample: Held = { time, compositionOffset: Math.round((frame.pts - frame.dts) * 90), sync: frame.keyframe, data: frame.data };
    const held = track.held;
    track.held = sample;
    if (held) this.completeLead(session, { ...held, duration: time - held.time }, frame.keyframe);
  }

  audio(frame: AudioFrame): void {
    if (this.closed) return;
    if (!this.session) {
      if (!this.audioConfigNext) return;
      if (this.videoConfigNext) {
        // The session starts at the first video keyframe; audio of the same instant may come just before it.
        this.audioBeforeVideo.push(frame);
        if (this.audioBeforeVideo.length > AUDIO_BEFORE_VIDEO_LIMIT) this.audioBeforeVideo.shift();
        return;
      }
      this.startSession(frame.dts);
    }
    const session = this.session!;
    const track = session.audio;
    if (!track) return;
    const dtsMs = this.timelineMs(session, track, frame.dts);
    if (dtsMs === null) return;
    const rate = track.timescale;
    const measured = Math.round((dtsMs * rate) / 1000);
    const held = track.held;
    let time = measured;
    if (held) {
      // AAC frames are 1,024 samples; the ms timestamps only say when the count jumps (a gap).
      const expected = held.time + AAC_FRAME_SAMPLES;
      time = Math.abs(measured - expected) <= rate * 0.03 ? expected : Math.max(measured, held.time + 1);
    }
    track.held = { time, compositionOffset: 0, sync: true, data: frame.data };
    if (!held) return;
    const completed = { ...held, duration: time - held.time };
    track.lastDuration = completed.duration;
    if (session.video) {
      session.audioQueue.push(completed);
      if (session.audioQueue.length > AUDIO_QUEUE_LIMIT) session.audioQueue.shift();
    } else {
      this.completeLead(session, completed, true);
    }
  }

  /**
   * A frame's place on the timeline (ms): the publisher's clock plus the session's offset. When that clock
   * jumps (reset, wrapped, stalled), the offset moves so the timeline goes on right after the held frame.
   * Null: before the session's first frame.
   */
  private timelineMs(session: Session, track: TrackState, dts: number): number | null {
    const at = dts + session.offsetMs;
    if (!track.held) return dts < session.firstDtsMs ? null : at;
    const heldMs = (track.held.time * 1000) / track.timescale;
    if (at - heldMs >= -CLOCK_BACK_MS && at - heldMs <= CLOCK_JUMP_MS) return at;
    const step = track.lastDuration || (track.init.kind === "audio" ? AAC_FRAME_SAMPLES : VIDEO_TIMESCALE / 30);
    const next = heldMs + (step * 1000) / track.timescale;
    session.offsetMs += next - at;
    return next;
  }

  end(_reason: string): void {
    if (this.closed) return;
    this.finishSession();
    this.videoConfigNext = null;
    this.audioConfigNext = null;
    this.audioBeforeVideo = [];
    this.live = false;
    this.waiters.notify();
  }

  /** Drops the stream: everything held is freed, waiting requests answered "gone". */
  close(): void {
    this.closed = true;
    this.live = false;
    this.session = null;
    this.window.clear();
    this.waiters.cancelAll();
  }

  // ---- sessions, parts and segments ----

  private startSession(firstDtsMs: number): void {
    const tracks: InitTrack[] = [];
    if (this.videoConfigNext) tracks.push({ id: 1, kind: "video", config: this.videoConfigNext });
    if (this.audioConfigNext) tracks.push({ id: tracks.length + 1, kind: "audio", config: this.audioConfigNext });
    const name = initName(++this.sessions);
    this.window.addInit(name, writeInit(tracks));
    const state = <T extends InitTrack>(init: T) => ({
      init,
      timescale: init.kind === "video" ? VIDEO_TIMESCALE : init.config.sampleRate,
      held: null,
      lastDuration: 0,
    });
    const video = tracks.find((t) => t.kind === "video");
    const audio = tracks.find((t) => t.kind === "audio");
    const wall = this.now();
    this.session = {
      init: name,
      video: video?.kind === "video" ? state(video) : null,
      audio: audio?.kind === "audio" ? state(audio) : null,
      offsetMs: this.timelineEndMs - firstDtsMs,
      firstDtsMs,
      wallAnchor: wall,
      mediaAnchorMs: this.timelineEndMs,
      discontinuity: this.sessions > 1,
      partVideo: [],
      partAudio: [],
      audioQueue: [],
      partTicks: 0,
      segmentTicks: 0,
    };
    this.lastVideo = this.videoConfigNext;
    this.lastAudio = this.audioConfigNext;
    this.live = true;
    this.since = wall;
  }

  private lead(session: Session): TrackState {
    return (session.video ?? session.audio)!;
  }

  /** A lead-track sample whose duration is now known; `nextSync` tells whether the one after starts a GOP. */
  private completeLead(session: Session, sample: Completed, nextSync: boolean): void {
    const lead = this.lead(session);
    lead.lastDuration = sample.duration;
    const partLimit = (this.partTargetMs * lead.timescale) / 1000;
    if (!this.window.current) this.openSegment(session, sample.time);
    if (session.partTicks > 0 && session.partTicks + sample.duration > partLimit) this.closePart(session);
    (session.video ? session.partVideo : session.partAudio).push(sample);
    session.partTicks += sample.duration;
    session.segmentTicks += sample.duration;
    const segmentMs = (session.segmentTicks * 1000) / lead.timescale;
    if ((nextSync && segmentMs >= this.segmentMinMs) || segmentMs >= this.segmentMaxMs) {
      this.closePart(session);
      this.closeSegment();
    } else if (session.partTicks + sample.duration > partLimit) {
      this.closePart(session);
    }
  }

  private openSegment(session: Session, leadTime: number): void {
    const lead = this.lead(session);
    const timelineMs = (leadTime * 1000) / lead.timescale;
    const pdt = Math.round(session.wallAnchor + timelineMs - session.mediaAnchorMs);
    this.window.openSegment(session.init, session.discontinuity, pdt);
    session.discontinuity = false;
    session.segmentTicks = 0;
  }

  private closePart(session: Session, flushAudio = false): void {
    const segment = this.window.current;
    if (!segment) return;
    const tracks: FragmentTrack[] = [];
    const figures = segment.figures;
    let independent = true;
    if (session.video && session.partVideo.length > 0) {
      const last = session.partVideo[session.partVideo.length - 1]!;
      const endS = (last.time + last.duration) / VIDEO_TIMESCALE;
      const rate = session.audio?.timescale ?? 1;
      let take = 0;
      while (take < session.audioQueue.length && (flushAudio || session.audioQueue[take]!.time / rate < endS)) take++;
      session.partAudio = session.audioQueue.splice(0, take);
      tracks.push(fragmentTrack(session.video.init.id, session.partVideo));
      independent = session.partVideo[0]!.sync;
      figures.videoFrames += session.partVideo.length;
      if (figures.firstVideoTime < 0) figures.firstVideoTime = session.partVideo[0]!.time;
      figures.lastVideoTime = last.time;
      for (const s of session.partVideo) {
        if (s.sync) figures.keyframes++;
        figures.videoBytes += s.data.length;
      }
    }
    if (session.audio && session.partAudio.length > 0) {
      tracks.push(fragmentTrack(session.audio.init.id, session.partAudio));
      for (const s of session.partAudio) figures.audioBytes += s.data.length;
    }
    const lead = this.lead(session);
    const duration = session.partTicks / lead.timescale;
    session.partVideo = [];
    session.partAudio = [];
    session.partTicks = 0;
    if (tracks.length === 0 || duration <= 0) return;
    this.window.addPart({ duration, independent, bytes: writeFragment(this.fragmentSequence++, tracks) });
    this.waiters.notify();
  }

  private closeSegment(): void {
    const segment = this.window.current;
    this.window.closeSegment();
    if (segment?.bytes) this.targetDurationS = Math.max(this.targetDurationS, Math.round(segment.duration));
    this.waiters.notify();
  }

  /** Writes out what is held (the last samples' durations estimated from the ones before) and ends the session. */
  private finishSession(): void {
    const session = this.session;
    if (!session) return;
    for (const track of [session.video, session.audio]) {
      if (!track?.held) continue;
      const duration = track.lastDuration || (track === session.audio ? AAC_FRAME_SAMPLES : 3000);
      const last = { ...track.held, duration };
      track.held = null;
      if (track === this.lead(session)) {
        if (!this.window.current) this.openSegment(session, last.time);
        (session.video ? session.partVideo : session.partAudio).push(last);
        session.partTicks += duration;
      } else {
        session.audioQueue.push(last);
      }
      const endMs = ((last.time + duration) * 1000) / track.timescale;
      this.timelineEndMs = Math.max(this.timelineEndMs, endMs);
    }
    this.closePart(session, true);
    this.closeSegment();
    this.session = null;
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
    const timeoutMs = this.blockingTimeoutMs ?? this.targetDurationS * 3000;
    const ok = await this.waiters.wait(satisfied, timeoutMs, request.signal);
    if (this.closed) return { status: "gone" };
    if (!ok) return { status: "not-yet" };
    return { status: "ok", body: renderMediaPlaylist(this.window.snapshot(this.targetDurationS, this.partTarget), request.query) };
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
    if (this.closed || (!this.lastVideo && !this.lastAudio)) return null;
    const figures = this.figures();
    const codecs: string[] = [];
    if (this.lastVideo) codecs.push(videoCodecString(this.lastVideo));
    if (this.lastAudio) codecs.push(audioCodecString(this.lastAudio));
    const measuredKbps = (figures.video?.kbps ?? 0) + (figures.audio?.kbps ?? 0);
    const statedKbps = (this.meta.videoBitrateKbps ?? 0) + (this.meta.audioBitrateKbps ?? 0);
    const kbps = Math.max(measuredKbps, statedKbps) || 3000;
    return renderMultivariantPlaylist({
      bandwidth: kbps * 1000 * 1.2,
      averageBandwidth: measuredKbps ? measuredKbps * 1000 : undefined,
      codecs,
      width: this.lastVideo?.width || this.meta.width,
      height: this.lastVideo?.height || this.meta.height,
      frameRate: figures.video?.fps ?? this.meta.framerate,
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
  async awaitPart(name: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Uint8Array | null> {
    const parsed = parsePartName(name);
    if (!parsed || this.closed) return null;
    const found = () => this.window.findPart(parsed.msn, parsed.index);
    if (found()) return found()!.bytes;
    if (name !== this.window.preloadHint()) return null;
    const timeoutMs = options.timeoutMs ?? this.blockingTimeoutMs ?? this.targetDurationS * 3000;
    await this.waiters.wait(() => this.closed || found() !== null, timeoutMs, options.signal);
    return this.closed ? null : (found()?.bytes ?? null);
  }

  /** What can be seen of the publisher's stream, measured over the window's segments of the latest session. */
  figures(): PublisherFigures {
    let seconds = 0;
    let frames = 0;
    let firstVideo = -1;
    let lastVideo = -1;
    let keyframes = 0;
    let videoBytes = 0;
    let audioBytes = 0;
    // The latest publish session's segments: its encoder's settings, not a mix with the one before.
    const latest = this.window.complete[this.window.complete.length - 1]?.initName;
    for (const segment of this.window.complete.filter((s) => s.initName === latest)) {
      seconds += segment.duration;
      frames += segment.figures.videoFrames;
      if (firstVideo < 0) firstVideo = segment.figures.firstVideoTime;
      if (segment.figures.lastVideoTime >= 0) lastVideo = segment.figures.lastVideoTime;
      keyframes += segment.figures.keyframes;
      videoBytes += segment.figures.videoBytes;
      audioBytes += segment.figures.audioBytes;
    }
    const kbps = (bytes: number) => (seconds > 0 ? Math.round((bytes * 8) / seconds / 1000) : null);
    const video = this.lastVideo;
    const audio = this.lastAudio;
    return {
      live: this.live,
      since: this.since,
      video: video
        ? {
            codec: videoCodecString(video),
            width: video.width,
            height: video.height,
            fps: frames > 1 && lastVideo > firstVideo ? frameRate(((frames - 1) * VIDEO_TIMESCALE) / (lastVideo - firstVideo)) : null,
            keyframeIntervalS: keyframes > 0 ? Math.round((seconds / keyframes) * 100) / 100 : null,
            kbps: kbps(videoBytes),
          }
        : null,
      audio: audio ? { codec: audioCodecString(audio), sampleRate: audio.sampleRate, channels: audio.channels, kbps: kbps(audioBytes) } : null,
      metadata: this.meta,
      mediaSequence: this.window.complete[0]?.msn ?? this.window.nextMsn,
      segments: this.window.complete.length,
      bytesHeld: this.window.bytes,
    };
  }

  /** Requests being held (blocking reloads, hinted parts). */
  get waiting(): number {
    return this.waiters.size;
  }
}

const COMMON_FRAME_RATES = [23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60];

/** A measured rate (from ms timestamps) as the nearest common one within 0.5 %, else to two decimals. */
function frameRate(measured: number): number {
  const nearest = COMMON_FRAME_RATES.reduce((a, b) => (Math.abs(b - measured) < Math.abs(a - measured) ? b : a));
  return Math.abs(nearest - measured) <= nearest * 0.005 ? nearest : Math.round(measured * 100) / 100;
}

function sameVideo(a: VideoConfig, b: VideoConfig): boolean {
  return a.codec === b.codec && a.width === b.width && a.height === b.height && sameBytes(a.record, b.record);
}

function fragmentTrack(id: number, samples: Completed[]): FragmentTrack {
  return {
    id,
    baseDecodeTime: samples[0]!.time,
    samples: samples.map(
      (s): FragmentSample => ({ duration: s.duration, compositionOffset: s.compositionOffset, sync: s.sync, data: s.data }),
    ),
  };
}
