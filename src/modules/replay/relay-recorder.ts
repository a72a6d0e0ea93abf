import type { SingleJob } from "../../cluster/cluster.ts";
import { HttpError } from "../../lib/errors.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import type { Logger } from "../../lib/logger.ts";
import { RELAY_PREFIX } from "../stream/providers.ts";
import type { RelayAnswer } from "../stream/relay.ts";
import { parseOriginPlaylist, type OriginPlaylist, type OriginSegment } from "../../media/hls/playlist-reader.ts";
import { initPictureSize } from "./rebase.ts";
import type { KeptSink, Recorder } from "./recorder.ts";
import { demuxTs, TsClock } from "../../media/formats/mpegts.ts";
import { spsSize } from "../../media/formats/ts-to-fmp4.ts";

/** The relay's files, as a viewer gets them: through its cache, each fetched from the origin once. */
export interface RelayFiles {
  serve(requestUrl: string): RelayAnswer | Promise<RelayAnswer>;
}

/** While there is nothing to follow (another source, the livestream off), whether there is is checked this often. */
const IDLE_MS = 2000;
/** A playlist that is a recording already (VOD), or whose segments cannot be kept, is looked at again this often. */
const RECHECK_MS = 30_000;
/** With no relayed source, how often it looks anyway (a source saved is told at once, through `nudge`). */
const NO_ORIGIN_MS = 60_000;
/** An origin that gives no new segment for this long (down, or its playlist stuck) has ended its run. */
const GONE_MS = 10_000;
/** A segment numbered at or below the last one kept that starts this long after it ends belongs to a new numbering. */
const RESTARTED_AFTER_MS = 10_000;
/** On first sight of a live playlist, the segments of its last minute are kept (not hours of an EVENT playlist's past). */
const FIRST_LOOK_MS = 60_000;

type Fetched = Uint8Array | "missing" | "unavailable";

/** One continuous run of the origin's segments: one recording. */
interface Run {
  sink: KeptSink;
  lastMsn: number;
  ts: boolean;
  map: string | null;
  init: { name: string; bytes: Uint8Array } | null;
  inits: number;
}

/**
 * Keeps the HLS relay's stream as the built-in ingest's is kept: while the source is the relay and the
 * livestream is on, the origin's live media playlist is followed (for a multivariant playlist, its
 * highest-bandwidth variant) and every new segment (with its fMP4 init, if any) is fetched through the
 * relay's own cache — so the origin is asked once for what viewers also fetch — and kept as it came,
 * fMP4 or MPEG-TS. One recording per continuous run: a discontinuity, a gap in the numbering, a new
 * numbering (the origin started again) or an origin gone for ten seconds starts a new one. Program
 * date-times are the origin's where it gives them, else the newest segment is taken to end at the fetch.
 * Runs on one instance of a cluster (a single-owner job); an instance taking it over (or a restart) skips
 * what is kept already. Everything it fetches is bounded by the relay.
 */
export class RelayRecorder implements SingleJob {
  private run: Run | null = null;
  /** The origin followed, and the newest segment of it seen (by media sequence number), across runs. */
  private origin: string | null = null;
  private lastMsn = -1;
  /**
   * On a first look at a playlist without program date-times, its newest segment's number: its segments'
   * times are known only once it is seen to move (a stalled playlist's last segment did not end "now").
   */
  private sighted: number | null = null;
  /** When the origin last gave a new segment. */
  private lastNewAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private ticking: Promise<void> | null = null;
  /** Told of a new source while a look was under way. */
  private nudged = false;
  private on = false;
  private readonly told = new Set<string>();
  /** A database or store away: said once while it lasts, and the following goes on when it is back. */
  private readonly trouble: LastingFailure;

  constructor(
    private readonly relay: RelayFiles,
    private readonly originUrl: () => string | null,
    private readonly livestreamOn: () => Promise<boolean>,
    private readonly recorder: Recorder,
    private readonly log: Logger,
  ) {
    this.trouble = new LastingFailure(log, "replay: the relayed stream not followed", "replay: the relayed stream followed again");
  }

  start(): void {
    if (this.on) return;
    this.on = true;
    // Another instance may have kept the stream meanwhile: the first look goes by what is kept, not by this one's memory.
    this.origin = null;
    this.lastMsn = -1;
    this.sighted = null;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.on = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    await this.endRun();
  }

  /** The stream source was saved or read again: a recorder resting between looks looks now. */
  nudge(): void {
    if (!this.on) return;
    // A look under way may have read the source before it changed: the next one follows at once.
    if (this.ticking) this.nudged = true;
    else if (this.timer) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ticking = this.tick()
        .then(
          (next) => {
            this.trouble.succeeded();
            return next;
          },
          (error: unknown) => {
            this.trouble.failed(error);
            return IDLE_MS;
          },
        )
        .then((next) => {
          this.ticking = null;
          const now = this.nudged;
          this.nudged = false;
          if (this.on) this.schedule(now ? 0 : next);
        });
    }, ms);
  }

  /** Looks at the origin's playlist once, keeps what is new; resolves with when to look again. */
  private async tick(): Promise<number> {
    const origin = this.originUrl();
    if (origin !== this.origin) {
      await this.endRun();
      this.origin = origin;
      this.lastMsn = -1;
      this.sighted = null;
    }
    // No relayed source: nothing to follow until the source changes (`nudge`), with a slow look meanwhile.
    if (!origin) {
      await this.endRun();
      return NO_ORIGIN_MS;
    }
    if (!(await this.livestreamOn())) {
      await this.endRun();
      return IDLE_MS;
    }
    const playlist = await this.mediaPlaylist(origin);
    if (!playlist) return this.quiet(1000);
    if (playlist.vod || playlist.unsupported) {
      if (playlist.unsupported) this.tell(`replay: the relayed stream is not recorded: ${playlist.unsupported}`);
      await this.endRun();
      return RECHECK_MS;
    }
    const now = Date.now();
    const { segments } = playlist;
    // Half a target duration between looks, within half a second and four.
    const lookAgain = Math.min(4000, Math.max(500, playlist.targetDuration * 500));
    // A numbering that went back: the origin started again, and its segments are all new.
    if (segments.length && segments.at(-1)!.msn < this.lastMsn) {
      await this.endRun();
      this.lastMsn = -1;
    }
    // Where the origin gives no program date-time, the newest segment is taken to end now.
    const estimated: number[] = [];
    for (let i = segments.length - 1, at = now; i >= 0; i--) estimated[i] = at -= segments[i]!.duration * 1000;
    const firstLook = this.lastMsn === -1;
    if (firstLook && segments.length && segments.at(-1)!.programDateTime === null) {
      const newest = segments.at(-1)!.msn;
      if (this.sighted === null || newest <= this.sighted) {
        this.sighted = newest;
        return this.quiet(lookAgain);
      }
    }
    this.sighted = null;
    // Taking over from another instance (or after a restart): what is already kept is not kept twice. Kept from
    // this origin, and its numbering not gone back since: by number, after the last one kept. Kept from another
    // origin: nothing of this one is. Kept from the ingest, or before recordings named their origin: by time.
    const found = firstLook ? await this.recorder.keptPosition() : null;
    const kept = found && (found.origin === null || found.origin === origin) ? found : null;
    const keptMsn = kept?.origin === origin && kept.msn !== null && segments.length && kept.msn <= segments.at(-1)!.msn ? kept.msn : null;
    for (const [i, segment] of segments.entries()) {
      if (segment.msn <= this.lastMsn) continue;
      const start = segment.programDateTime ?? estimated[i]!;
      if (firstLook && estimated[i]! < now - FIRST_LOOK_MS) continue;
      if (keptMsn !== null) {
        // A number kept already, unless the segment clearly starts after what is kept ends: the origin started
        // numbering again, and has gone past the number kept since.
        if (segment.msn <= keptMsn && start < kept!.until + RESTARTED_AFTER_MS) continue;
      } else if (kept && start + (segment.duration * 1000) / 2 < kept.until) {
        // By time, with half a segment's leeway: an estimated start is off by the two fetches' timing, not by a segment.
        continue;
      }
      this.lastNewAt = now;
      if ((await this.keep(segment, start)) === "later") break;
      this.lastMsn = segment.msn;
    }
    if (playlist.ended) await this.endRun();
    return this.quiet(lookAgain);
  }

  /** The media playlist to follow (a multivariant playlist's chosen variant), or null when the origin gives none now. */
  private async mediaPlaylist(origin: string): Promise<Extract<OriginPlaylist, { kind: "media" }> | null> {
    let uri = RELAY_PREFIX + new URL(origin).pathname.split("/").pop()!;
    for (let depth = 0; depth < 2; depth++) {
      const text = await this.fetch(uri);
      if (!(text instanceof Uint8Array)) return null;
      const playlist = parseOriginPlaylist(new TextDecoder().decode(text));
      if (playlist.kind === "media") return playlist;
      if (!playlist.variant) return null;
      uri = playlist.variant;
    }
    return null;
  }

  /** The run ends once the origin has given nothing new for a while. */
  private async quiet(next: number): Promise<number> {
    if (this.run && Date.now() - this.lastNewAt > GONE_MS) await this.endRun();
    return next;
  }

  /** Keeps one segment: "later" when it (or its init) cannot be fetched now but may be on the next look. */
  private async keep(segment: OriginSegment, programDateTime: number): Promise<"kept" | "skipped" | "later"> {
    const bytes = await this.fetch(segment.uri);
    if (bytes === "unavailable") return "later";
    const ts = segment.map === null;
    if (bytes === "missing" || (ts && bytes[0] !== 0x47)) {
      if (bytes !== "missing") this.tell("replay: a relayed segment that is neither MPEG-TS nor fMP4 is not recorded");
      // A gap: what follows starts a recording of its own.
      await this.endRun();
      return "skipped";
    }
    const run = this.run;
    const continues = run !== null && !segment.discontinuity && segment.msn === run.lastMsn + 1 && run.ts === ts;
    let init = continues && run.map === segment.map ? run.init : null;
    if (segment.map !== null && !init) {
      const initBytes = await this.fetch(segment.map);
      if (initBytes === "unavailable") return "later";
      if (initBytes === "missing") {
        await this.endRun();
        return "skipped";
      }
      init = { name: `init-${continues ? run.inits : 0}.mp4`, bytes: initBytes };
    }
    if (!continues) {
      await this.endRun();
      const size = init ? initPictureSize(init.bytes) : tsPictureSize(bytes);
      this.run = { sink: this.recorder.keep(() => size, this.origin), lastMsn: segment.msn, ts, map: null, init: null, inits: 0 };
      this.log.info(`replay: recording the relayed stream (${ts ? "MPEG-TS" : "fMP4"}${size.width ? `, ${size.width}x${size.height}` : ""})`);
    }
    const current = this.run!;
    if (init && init !== current.init) current.inits++;
    Object.assign(current, { lastMsn: segment.msn, map: segment.map, init });
    current.sink.add({ bytes, duration: segment.duration, programDateTime, init, originMsn: segment.msn });
    // One segment at a time in memory: the next is fetched once this one is written.
    await current.sink.written();
    return "kept";
  }

  /** A relay path's bytes, through the relay's cache: "missing" when the origin has no such file, "unavailable" when it cannot be had now. */
  private async fetch(uri: string): Promise<Fetched> {
    try {
      const { body } = await this.relay.serve(`http://relay${uri}`);
      return typeof body === "string" ? new TextEncoder().encode(body) : await body.bytes();
    } catch (error) {
      if (error instanceof HttpError) return error.status === 503 ? "unavailable" : "missing";
      throw error;
    }
  }

  private async endRun(): Promise<void> {
    const run = this.run;
    this.run = null;
    if (run) await run.sink.close();
  }

  /** Said once per kind of trouble, not once per look. */
  private tell(message: string): void {
    if (this.told.has(message)) return;
    this.told.add(message);
    this.log.warn(message);
  }
}

/** An MPEG-TS segment's picture size, from its H.264 SPS (0 × 0 when it has none or cannot be read). */
function tsPictureSize(bytes: Uint8Array): { width: number; height: number } {
  try {
    return spsSize(demuxTs(bytes, new TsClock()).video?.sps ?? null);
  } catch {
    return { width: 0, height: 0 };
  }
}
