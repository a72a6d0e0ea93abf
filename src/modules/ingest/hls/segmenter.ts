/**
 * The packager's cutting room: takes one stream's configs and frames (a `MediaSink`) and writes them into the
 * window as fMP4 parts and segments. Sample durations come from the next frame's time (one frame held back
 * per track); segments are cut at a video keyframe once `segmentMinMs` is reached (audio-only: on time),
 * parts at the fixed part target. The target duration is fixed for the stream's life (`segmentMaxMs`
 * rounded up): a publisher whose keyframes are further apart gets segments cut without one, never a
 * segment that rounds above it, and no part is longer than the part target (a frame after a stall is
 * shortened to it, leaving a gap before the next). A video frame that will be its part's last (the next would pass the target)
 * does not wait for the next frame: the part is written as it arrives, that frame's duration taken from the
 * one before, and the next frame starts where the part ended. A new publish session (new configs after `end`, or changed configs)
 * continues the timeline after a discontinuity with a new init segment. A session without sound gets a silent
 * AAC track all the same, so that every session has the same tracks: a player's buffers are made for the first
 * session's tracks, and neither hls.js (one muxed SourceBuffer for fMP4 with both) nor Safari's own player
 * follows a track that goes away at a discontinuity (the stream, live or replayed, stops there).
 */
import type { AudioConfig, AudioFrame, MediaSink, StreamMetadata, VideoConfig, VideoFrame } from "../../../media/stream.ts";
import { trackTimescale, VIDEO_TIMESCALE, writeFragment, writeInit, type FragmentTrack, type InitTrack } from "../../../media/formats/fmp4.ts";
import {
  AAC_FRAME_SAMPLES,
  AUDIO_BEFORE_VIDEO_LIMIT,
  AUDIO_QUEUE_LIMIT,
  EARLY_AUDIO_MS,
  fragmentTrack,
  KEYFRAME_GRACE_MS,
  predictDuration,
  RECENT_DURATIONS,
  ROUNDING_MARGIN_MS,
  sameBytes,
  sameVideo,
  SILENT_AUDIO,
  type Completed,
  type Held,
  type SegmenterOptions,
  type Session,
  timelineMs,
  type TrackState,
  fillSilence,
} from "./segmenter-state.ts";

import { initName, type SegmentWindow } from "./window.ts";

export class Segmenter implements MediaSink {
  private videoConfigNext: VideoConfig | null = null;
  private audioConfigNext: AudioConfig | null = null;
  private session: Session | null = null;
  private audioBeforeVideo: AudioFrame[] = [];
  private sessions = 0;
  private fragmentSequence = 1;
  /** Where the timeline stands (ms) after the last session, so the next one continues from it. */
  private timelineEndMs = 0;
  private closed = false;
  /** Whole seconds, fixed for the stream's life: no segment's EXTINF rounded passes it. */
  readonly targetDuration: number;
  live = false;
  /** Wall clock at which the current (or last) publish session started. */
  since: number | null = null;
  meta: StreamMetadata = {};
  /** The current (or last) session's configs, as the publisher sent them (no audio: null, though its segments carry silence). */
  lastVideo: VideoConfig | null = null;
  lastAudio: AudioConfig | null = null;
  /** The audio its segments carry: the publisher's, or the silent track of a session without sound. */
  get segmentAudio(): AudioConfig | null {
    return this.lastAudio ?? (this.lastVideo ? SILENT_AUDIO : null);
  }

  constructor(
    private readonly window: SegmentWindow,
    private readonly options: SegmenterOptions,
  ) {
    this.targetDuration = Math.max(1, Math.ceil(Math.max(options.segmentMinMs, options.segmentMaxMs) / 1000));
  }

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
    const running = this.session?.silent ? null : this.session?.audio?.init.config;
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
    const dtsMs = timelineMs(session, track, frame.dts);
    if (dtsMs === null) return;
    const held = track.held;
    let time = Math.max(Math.round(dtsMs * 90), held ? held.time + 1 : 0);
    if (held) {
      track.recent.push(time - held.time);
      if (track.recent.length > RECENT_DURATIONS) track.recent.shift();
    }
    if (held?.committed) {
      // The part before ended on a predicted duration: this frame starts where it ended, unless it came far
      // later (a dropped frame, a stall), which leaves a gap rather than moving it.
      const end = held.time + held.committed;
      if (time - end <= held.committed / 2) time = end;
    }
    const sample: Held = { time, compositionOffset: Math.round((frame.pts - frame.dts) * 90), sync: frame.keyframe, data: frame.data };
    track.held = sample;
    if (held?.committed) this.afterCommitted(session, frame.keyframe);
    else if (held) this.completeLead(session, { ...held, duration: time - held.time }, frame.keyframe);
    this.commitIfLast(session, track);
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
    if (!track || session.silent) return;
    const dtsMs = timelineMs(session, track, frame.dts);
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

  end(_reason: string): void {
    if (this.closed) return;
    this.finishSession();
    this.videoConfigNext = null;
    this.audioConfigNext = null;
    this.audioBeforeVideo = [];
    this.live = false;
    this.options.onChange();
  }

  /** Takes nothing more (the stream was dropped). */
  close(): void {
    this.closed = true;
    this.live = false;
    this.session = null;
  }

  private startSession(firstDtsMs: number): void {
    const tracks: InitTrack[] = [];
    if (this.videoConfigNext) tracks.push({ id: 1, kind: "video", config: this.videoConfigNext });
    const silent = this.videoConfigNext !== null && this.audioConfigNext === null;
    const audioConfig = this.audioConfigNext ?? (silent ? SILENT_AUDIO : null);
    if (audioConfig) tracks.push({ id: tracks.length + 1, kind: "audio", config: audioConfig });
    const name = initName(++this.sessions);
    this.window.addInit(name, writeInit(tracks));
    const state = <T extends InitTrack>(init: T) => ({
      init,
      timescale: trackTimescale(init),
      held: null,
      lastDuration: 0,
      recent: [],
    });
    const video = tracks.find((t) => t.kind === "video");
    const audio = tracks.find((t) => t.kind === "audio");
    const wall = this.options.now();
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
      videoEndS: 0,
      segmentIndependent: true,
      silent: silent ? { next: -1 } : null,
    };
    this.lastVideo = this.videoConfigNext;
    this.lastAudio = this.audioConfigNext;
    this.live = true;
    this.since = wall;
  }

  private lead(session: Session): TrackState {
    return (session.video ?? session.audio)!;
  }

  /**
   * Whether a segment `segmentMs` long ends before the next frame: at a keyframe once it is long enough (half
   * a frame short counts: a publisher's millisecond clock makes 30 frames 999 ms as often as 1,000), or
   * without one a little past the target duration.
   */
  private endsSegment(session: Session, segmentMs: number, nextSync: boolean, frameMs: number): boolean {
    const minMs = session.segmentIndependent ? this.options.segmentMinMs : 0;
    return (nextSync && segmentMs + frameMs / 2 >= minMs) || segmentMs >= this.targetDuration * 1000 + KEYFRAME_GRACE_MS;
  }

  /** A sample this long would take the open segment past what rounds to the target duration. */
  private overflows(session: Session, ticks: number): boolean {
    const lead = this.lead(session);
    return session.segmentTicks > 0 && ((session.segmentTicks + ticks) * 1000) / lead.timescale > this.targetDuration * 1000 + ROUNDING_MARGIN_MS;
  }

  /** A lead-track sample whose duration is now known; `nextSync` tells whether the one after starts a GOP. */
  private completeLead(session: Session, sample: Completed, nextSync: boolean): void {
    const lead = this.lead(session);
    lead.lastDuration = sample.duration;
    const partLimit = (this.options.partTargetMs * lead.timescale) / 1000;
    // A frame longer than a part (after a stall) is shortened to one; the timeline leaves a gap after it.
    const gapAfter = sample.duration > partLimit;
    if (gapAfter) sample = { ...sample, duration: Math.floor(partLimit) };
    if (this.window.current && this.overflows(session, sample.duration)) {
      this.closePart(session);
      this.closeSegment();
    }
    if (!this.window.current) this.openSegment(session, sample.time, sample.sync);
    if (session.partTicks > 0 && session.partTicks + sample.duration > partLimit) this.closePart(session);
    (session.video ? session.partVideo : session.partAudio).push(sample);
    session.partTicks += sample.duration;
    session.segmentTicks += sample.duration;
    const segmentMs = (session.segmentTicks * 1000) / lead.timescale;
    if (this.endsSegment(session, segmentMs, nextSync, (sample.duration * 1000) / lead.timescale)) {
      this.closePart(session);
      this.closeSegment();
    } else if (gapAfter || session.partTicks + sample.duration > partLimit) {
      this.closePart(session);
    }
  }

  /**
   * Writes the held video frame and closes its part now when it will be the part's last (the frame after it
   * would pass the part target), its duration predicted from the frame before: a part is listed as soon as its
   * last frame is in, not a frame later.
   */
  private commitIfLast(session: Session, track: TrackState): void {
    const held = track.held;
    const duration = predictDuration(track);
    if (track !== session.video || !held || held.committed || duration <= 0 || session.partTicks === 0) return;
    const partLimit = (this.options.partTargetMs * track.timescale) / 1000;
    if (session.partTicks + duration > partLimit || session.partTicks + 2 * duration <= partLimit || this.overflows(session, duration)) return;
    held.committed = duration;
    session.partVideo.push({ ...held, duration });
    session.partTicks += duration;
    session.segmentTicks += duration;
    this.closePart(session);
    // If the frame after it may end the segment, the next part written may be the next segment's first.
    if (this.endsSegment(session, (session.segmentTicks * 1000) / track.timescale, true, (duration * 1000) / track.timescale)) this.window.expectSegmentEnd();
  }

  /** The frame after one written ahead has come: the segment closes here if this one starts the next. */
  private afterCommitted(session: Session, nextSync: boolean): void {
    const lead = this.lead(session);
    const segmentMs = (session.segmentTicks * 1000) / lead.timescale;
    if (this.endsSegment(session, segmentMs, nextSync, (lead.lastDuration * 1000) / lead.timescale)) {
      this.closePart(session);
      this.closeSegment();
    }
  }

  private openSegment(session: Session, leadTime: number, independent = true): void {
    const lead = this.lead(session);
    const timelineMs = (leadTime * 1000) / lead.timescale;
    const pdt = Math.round(session.wallAnchor + timelineMs - session.mediaAnchorMs);
    this.window.openSegment(session.init, session.discontinuity, pdt);
    session.discontinuity = false;
    session.segmentTicks = 0;
    session.segmentIndependent = independent;
  }

  private closePart(session: Session, flushAudio = false): void {
    const segment = this.window.current;
    if (!segment) return;
    const tracks: FragmentTrack[] = [];
    const figures = segment.figures;
    let independent = true;
    let duration = session.partTicks / this.lead(session).timescale;
    if (session.video && session.partVideo.length > 0) {
      const last = session.partVideo[session.partVideo.length - 1]!;
      const endS = (last.time + last.duration) / VIDEO_TIMESCALE;
      const rate = session.audio?.timescale ?? 1;
      if (session.silent) fillSilence(session, session.silent, rate, endS);
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
      session.videoEndS = endS;
    } else if (session.video && session.audio && flushAudio && session.audioQueue.length > 0) {
      // The session's last video part went out ahead of its audio: the audio left gets a part of its own,
      // as long as it runs past the video (an audio frame's length at least).
      session.partAudio = session.audioQueue.splice(0);
      independent = false;
      const last = session.partAudio[session.partAudio.length - 1]!;
      const rate = session.audio.timescale;
      duration = Math.max((last.time + last.duration) / rate - session.videoEndS, last.duration / rate);
    }
    if (session.audio && session.partAudio.length > 0) {
      tracks.push(fragmentTrack(session.audio.init.id, session.partAudio));
      for (const s of session.partAudio) figures.audioBytes += s.data.length;
    }
    session.partVideo = [];
    session.partAudio = [];
    session.partTicks = 0;
    if (tracks.length === 0 || duration <= 0) return;
    this.window.addPart({ duration, independent, bytes: writeFragment(this.fragmentSequence++, tracks) });
    this.options.onChange();
  }

  private closeSegment(): void {
    this.window.closeSegment();
    this.options.onChange();
  }

  /** Writes out what is held (the last samples' durations estimated from the ones before) and ends the session. */
  private finishSession(): void {
    const session = this.session;
    if (!session) return;
    for (const track of [session.video, session.audio]) {
      if (!track?.held) continue;
      if (track.held.committed) {
        // Written already, as its part's last.
        const endMs = ((track.held.time + track.held.committed) * 1000) / track.timescale;
        this.timelineEndMs = Math.max(this.timelineEndMs, endMs);
        track.held = null;
        continue;
      }
      const duration = Math.min(track.lastDuration || (track === session.audio ? AAC_FRAME_SAMPLES : 3000), Math.floor((this.options.partTargetMs * track.timescale) / 1000));
      const last = { ...track.held, duration };
      track.held = null;
      if (track === this.lead(session)) {
        if (!this.window.current) this.openSegment(session, last.time);
        if (session.partTicks > 0 && session.partTicks + duration > (this.options.partTargetMs * track.timescale) / 1000) this.closePart(session);
        (session.video ? session.partVideo : session.partAudio).push(last);
        session.partTicks += duration;
      } else {
        session.audioQueue.push(last);
      }
      const endMs = ((last.time + duration) * 1000) / track.timescale;
      this.timelineEndMs = Math.max(this.timelineEndMs, endMs);
    }
    this.closePart(session, true);
    if (session.silent && session.audio && session.silent.next > 0) {
      // The silence runs to its last frame's end, a little past the picture: the next session starts after it.
      this.timelineEndMs = Math.max(this.timelineEndMs, (session.silent.next * 1000) / session.audio.timescale);
    }
    this.closeSegment();
    this.session = null;
  }
}
