import { REPLAY_CHAT_LIMIT, replayUntilOf, type ReplayChat } from "../../contracts/replay.ts";
import type { ChatMessageStore } from "../chat/messages.ts";
import type { Store } from "../../db/store.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import type { SettingsService } from "../settings/service.ts";
import type { IngestService } from "../ingest/service.ts";
import type { StreamSourceService } from "../stream/source.ts";
import { RECORDING_TABLES, type RecordingRow, type RecordingStore, type Replayable } from "./recordings.ts";

/** Where the replay's VOD playlist and files are served (checked per request, like the live stream). */
export const REPLAY_PREFIX = "/api/stream/replay/";
/** The live stream counts as over once no publisher has come for this long (with the switch still on). */
export const NO_PUBLISHER_ENDS_AFTER_MS = 10 * 60_000;

export const REPLAY_ENDED = "The replay has ended.";

export type ReplayState = { state: "live" } | { state: "none" } | { state: "ended"; endedAt: number } | { state: "replay"; startedAt: number; durationS: number };

/**
 * The replay: after the night (the switch off, or no publisher for ten minutes), pass holders watch every
 * kept session one after another, trims applied, as one seekable VOD playlist; until "available until".
 */
export class ReplayService {
  constructor(
    private readonly store: Store,
    private readonly recordings: RecordingStore,
    private readonly settings: SettingsService,
    private readonly stream: StreamSourceService,
    private readonly ingest: IngestService,
    private readonly messages: Pick<ChatMessageStore, "asItHappened">,
  ) {}

  private kept: { writes: number; any: boolean } | null = null;

  /**
   * Whether any recording could be replayed (read once per change of the recordings: every page view asks, for its
   * Content-Security-Policy, as the replay's player needs blob: media whatever the stream source is now).
   */
  async anyKept(): Promise<boolean> {
    const writes = this.store.writesTo(RECORDING_TABLES);
    if (this.kept?.writes === writes) return this.kept.any;
    const any = (await this.store.get("SELECT 1 AS one FROM recordings WHERE hidden = 0 LIMIT 1")) !== null;
    if (!this.store.inTransaction()) this.kept = { writes, any };
    return any;
  }

  /** Whether the live stream is still what pages play (the switch on, and a publisher seen in the last ten minutes). */
  private async liveStill(now: number): Promise<boolean> {
    const s = await this.settings.get();
    if (!s.isActive) return false;
    const kind = this.stream.provider().kind;
    if (kind !== "ingest" && kind !== "hls") return true;
    if (kind === "ingest" && this.ingest.watchableNow()) return true;
    const { recording, lastAt } = await this.recorded();
    // The relay's origin counts as publishing while a recording of it is being written (on whichever instance follows it).
    if (kind === "hls" && recording) return true;
    // Before anything was ever recorded the event has not happened yet: the live page waits for it.
    if (lastAt === null) return true;
    return now - lastAt < NO_PUBLISHER_ENDS_AFTER_MS;
  }

  private recordedKept: { writes: number; facts: { recording: boolean; lastAt: number | null } } | null = null;

  /** Whether a recording is being written, and when the last one began or ended: read once per change of the recordings. */
  private async recorded(): Promise<{ recording: boolean; lastAt: number | null }> {
    const writes = this.store.writesTo(RECORDING_TABLES);
    if (this.recordedKept?.writes === writes) return this.recordedKept.facts;
    const row = await this.store.get<{ recording: number | null; at: number | null }>(
      "SELECT MAX(CASE WHEN state = 'recording' THEN 1 ELSE 0 END) AS recording, MAX(COALESCE(ended_at, started_at)) AS at FROM recordings",
    );
    const facts = { recording: Number(row?.recording ?? 0) === 1, lastAt: row?.at === null || row?.at === undefined ? null : Number(row.at) };
    if (!this.store.inTransaction()) this.recordedKept = { writes, facts };
    return facts;
  }

  async state(now = Date.now()): Promise<ReplayState> {
    if (await this.liveStill(now)) return { state: "live" };
    const s = await this.settings.get();
    if (!s.replayEnabled) return { state: "none" };
    const until = replayUntilOf(s);
    const kept = await this.recordings.replayable();
    if (kept.length === 0) return { state: "none" };
    if (now >= until) return { state: "ended", endedAt: until };
    return { state: "replay", startedAt: Number(kept[0]!.row.started_at), durationS: this.durationOf(kept) };
  }

  private duration: { of: Replayable[]; seconds: number } | null = null;

  /** Seconds the replay plays: summed once per listing of what is replayed (every segment request asks). */
  private durationOf(kept: Replayable[]): number {
    if (this.duration?.of !== kept) {
      this.duration = { of: kept, seconds: kept.reduce((t, r) => t + r.segments.reduce((d, seg) => d + Number(seg.duration_ms), 0), 0) / 1000 };
    }
    return this.duration.seconds;
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
    // The same for every viewer: rendered once per listing of what is replayed (an hour is 1,800 segments).
    if (this.rendered?.of !== all) this.rendered = { of: all, text: this.render(all) };
    return this.rendered.text;
  }

  private rendered: { of: Replayable[]; text: string } | null = null;

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
    const played = this.filesOf(await this.recordings.replayable()).get(recordingId);
    if (!played?.files.has(name)) throw notFound();
    return this.recordings.fileKey(played.row, name);
  }

  private filesIndex: { of: Replayable[]; byId: Map<number, { row: RecordingRow; files: Set<string> }> } | null = null;

  /** Each replayed recording's files (segments and inits) by its id, built once per listing of what is replayed. */
  private filesOf(kept: Replayable[]): Map<number, { row: RecordingRow; files: Set<string> }> {
    if (this.filesIndex?.of === kept) return this.filesIndex.byId;
    const byId = new Map<number, { row: RecordingRow; files: Set<string> }>();
    for (const { row, segments } of kept) {
      const files = new Set<string>();
      for (const s of segments) {
        files.add(s.file);
        if (s.init_file) files.add(s.init_file);
      }
      byId.set(Number(row.id), { row, files });
    }
    this.filesIndex = { of: kept, byId };
    return byId;
  }
}
