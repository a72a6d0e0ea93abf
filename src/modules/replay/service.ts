import { REPLAY_CHAT_LIMIT, type ReplayChat } from "../../contracts/replay.ts";
import type { ChatMessageStore } from "../chat/messages.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import type { SettingsService } from "../settings/service.ts";
import type { EventPhaseService } from "../event-phase/service.ts";
import type { RecordingRow, RecordingStore, Replayable } from "./recordings.ts";

/** What is derived from one listing of what the replay plays (RecordingStore.replayable). */
interface Listing {
  of: Replayable[];
  durationS: number;
  /** Each recording's row and the files the replay plays of it (segments and inits), by id. */
  files: Map<number, { row: RecordingRow; files: Set<string> }>;
  /** Rendered when first asked for. */
  playlist: string | null;
}

/** Where the replay's VOD playlist and files are served (checked per request, like the live stream). */
export const REPLAY_PREFIX = "/api/stream/replay/";
export const REPLAY_ENDED = "The replay has ended.";

/**
 * What pass holders get from the recordings: nothing yet (the night is not over: "live"), word that the night
 * is over (the replay being prepared, or none), the replay, or word that its window has closed.
 */
export type ReplayState =
  | { state: "live" }
  | { state: "over"; endedAt: number; replay: "coming" | "none"; cancelled?: true }
  | { state: "ended"; endedAt: number }
  | { state: "replay"; startedAt: number; durationS: number };

/**
 * The replay: once the night is ended (EventPhaseService), pass holders watch every kept session one after
 * another, trims applied, as one seekable VOD playlist; until "available until".
 */
export class ReplayService {
  constructor(
    private readonly recordings: RecordingStore,
    private readonly settings: SettingsService,
    private readonly phases: EventPhaseService,
    private readonly messages: Pick<ChatMessageStore, "asItHappened">,
  ) {}

  /**
   * Whether any recording could be replayed (every page view asks, for its Content-Security-Policy, as the
   * replay's player needs blob: media whatever the stream source is now).
   */
  async anyKept(): Promise<boolean> {
    return (await this.phases.facts()).anyKept;
  }

  async state(now = Date.now()): Promise<ReplayState> {
    const night = await this.phases.current(now);
    const { phase, endedAtMs, replayUntilMs } = night;
    if (endedAtMs === null) return { state: "live" };
    const s = await this.settings.get();
    // A cancelled event has no replay, whatever was rehearsed before it was called off.
    if (night.cancelledAt !== null) return { state: "over", endedAt: endedAtMs, replay: "none", cancelled: true };
    if (phase === "closed")
      return s.replayEnabled && (await this.phases.facts()).anyKept ? { state: "ended", endedAt: replayUntilMs } : { state: "over", endedAt: endedAtMs, replay: "none" };
    const kept = phase === "replay" ? await this.recordings.replayable() : [];
    if (kept.length === 0) return { state: "over", endedAt: endedAtMs, replay: s.replayEnabled ? "coming" : "none" };
    // When the night was: when it went live (a pre-show before the start included), else its start.
    const startedAt = night.wentLiveAt ? Date.parse(night.wentLiveAt) : Date.parse(s.startDate);
    return { state: "replay", startedAt, durationS: this.derived(kept).durationS };
  }

  private listing: Listing | null = null;

  /**
   * What every replay request derives from the listing of what is replayed, worked out once per listing (an
   * hour is 1,800 segments): its length, each recording's files, and the playlist once it is asked for.
   */
  private derived(kept: Replayable[]): Listing {
    if (this.listing?.of === kept) return this.listing;
    const files = new Map<number, { row: RecordingRow; files: Set<string> }>();
    let durationMs = 0;
    for (const { row, segments } of kept) {
      const names = new Set<string>();
      for (const s of segments) {
        durationMs += Number(s.duration_ms);
        names.add(s.file);
        if (s.init_file) names.add(s.init_file);
      }
      files.set(Number(row.id), { row, files: names });
    }
    this.listing = { of: kept, durationS: durationMs / 1000, files, playlist: null };
    return this.listing;
  }

  /** Refused (403) unless the replay is what is offered right now. */
  private async requireOpen(now: number): Promise<void> {
    const state = await this.state(now);
    if (state.state === "ended") throw forbidden(REPLAY_ENDED);
    if (state.state !== "replay") throw notFound("There is no replay to watch");
  }

  /**
   * The VOD playlist of every kept session, oldest first, a discontinuity between sessions. An EXT-X-MAP
   * holds for every segment after it, so relayed MPEG-TS sessions (no init) come before any fMP4 one; the
   * chat follows each segment's program date-time, so it stays with the picture whatever the order.
   */
  async playlist(now = Date.now()): Promise<string> {
    await this.requireOpen(now);
    const all = await this.recordings.replayable();
    // The same for every viewer.
    const listing = this.derived(all);
    listing.playlist ??= this.render(all);
    return listing.playlist;
  }

  private render(all: Replayable[]): string {
    const ts = (r: Replayable) => r.segments[0]!.init_file === "";
    const kept = [...all.filter(ts), ...all.filter((r) => !ts(r))];
    const target = Math.max(1, ...kept.flatMap((r) => r.segments.map((s) => Math.ceil(Number(s.duration_ms) / 1000))));
    const lines = ["#EXTM3U", "#EXT-X-VERSION:7", `#EXT-X-TARGETDURATION:${target}`, "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-INDEPENDENT-SEGMENTS"];
    kept.forEach(({ row, segments }, i) => {
      if (i > 0) lines.push("#EXT-X-DISCONTINUITY");
      let init = "";
      for (const s of segments) {
        if (s.init_file && s.init_file !== init) {
          init = s.init_file;
          lines.push(`#EXT-X-MAP:URI="r${row.id}/${init}"`);
        }
        lines.push(
          `#EXT-X-PROGRAM-DATE-TIME:${new Date(Number(s.program_date_time)).toISOString()}`,
          `#EXTINF:${(Number(s.duration_ms) / 1000).toFixed(3)},`,
          `r${row.id}/${s.file}`,
        );
      }
    });
    lines.push("#EXT-X-ENDLIST", "");
    return lines.join("\n");
  }

  /** The chat of the nights the replay plays, as it happened (a minute either side of the recordings). */
  async chat(now = Date.now()): Promise<ReplayChat> {
    await this.requireOpen(now);
    const kept = await this.recordings.replayable();
    const from = Math.min(...kept.map((r) => Number(r.row.started_at))) - 60_000;
    const to = Math.max(...kept.map((r) => Number(r.row.ended_at ?? now))) + 60_000;
    return this.messages.asItHappened(from, to, REPLAY_CHAT_LIMIT);
  }

  /** One file of a kept session, by its name in the playlist: only files the replay plays are served. */
  async file(recordingId: number, name: string, now = Date.now()): Promise<string> {
    await this.requireOpen(now);
    // Hidden recordings, and files outside the trims, are not in what the replay plays.
    const played = this.derived(await this.recordings.replayable()).files.get(recordingId);
    if (!played?.files.has(name)) throw notFound();
    return this.recordings.fileKey(played.row, name);
  }
}
