import type { RecordingPatchBody, RecordingState, RecordingView, RecordingsView } from "../../contracts/replay.ts";
import type { Store } from "../../db/store.ts";
import { badRequest, conflict, notFound } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { RecordingFiles } from "./files.ts";
import { startsOnSync, videoTrackId } from "./rebase.ts";
import { demuxTs, TsClock } from "../../media/formats/mpegts.ts";

/** One segment to keep, whatever made it: the built-in ingest's packager, or the relay's origin. */
export interface KeptSegment {
  bytes: Uint8Array;
  /** Seconds. */
  duration: number;
  programDateTime: number;
  /** Its fMP4 init segment; null for an MPEG-TS segment, which carries its own codec settings. */
  init: { name: string; bytes: Uint8Array } | null;
  /** Its media sequence number in the relayed origin's playlist; absent for the ingest's own. */
  originMsn?: number;
}

/** Where the newest kept segment (of any recording) ends, and for a relayed one, which origin and number it was there. */
export interface KeptPosition {
  /** When it ends (epoch ms). */
  until: number;
  /** The relayed origin its recording followed; null for the ingest's own. */
  origin: string | null;
  /** Its media sequence number in that origin's playlist; null for the ingest's own. */
  msn: number | null;
}

/** Whether a kept segment's file is MPEG-TS (an HLS origin's `.ts`) rather than fMP4. */
export const isTsFile = (file: string) => file.endsWith(".ts");

export interface RecordingRow {
  id: number;
  dir: string;
  title: string;
  state: RecordingState;
  failure: string | null;
  started_at: number;
  ended_at: number | null;
  duration_ms: number;
  bytes: number;
  width: number;
  height: number;
  trim_start_ms: number;
  trim_end_ms: number | null;
  hidden: number;
  rehearsal: number;
  segments: number;
  origin: string | null;
}

export interface SegmentRow {
  recording_id: number;
  seq: number;
  file: string;
  init_file: string;
  start_ms: number;
  duration_ms: number;
  program_date_time: number;
  bytes: number;
  origin_msn: number | null;
}

/** The tables a recording and its segments are read from. */
export const RECORDING_TABLES = ["recordings", "recording_segments"] as const;

/** A recording the replay plays, with the segments inside its trims. */
export interface Replayable {
  row: RecordingRow;
  segments: SegmentRow[];
}

/** A recording's segments that the replay plays: those inside its trims (cut at segment boundaries). */
export function playedSegments(recording: { trim_start_ms: number; trim_end_ms: number | null }, segments: SegmentRow[]): SegmentRow[] {
  const start = Number(recording.trim_start_ms);
  const end = recording.trim_end_ms === null ? Infinity : Number(recording.trim_end_ms);
  // A segment plays when it ends after the trim start and starts before the trim end.
  return segments.filter((s) => Number(s.start_ms) + Number(s.duration_ms) > start && Number(s.start_ms) < end);
}

const n = Number;

/** How many segments past the trim start are looked at for the first keyframe (a keyframe 10 s apart is 5 of 2 s). */
const KEYFRAME_LOOKAHEAD = 30;

function toView(row: RecordingRow, played: number): RecordingView {
  return {
    id: n(row.id),
    title: row.title,
    state: row.state,
    failure: row.failure,
    startedAt: new Date(n(row.started_at)).toISOString(),
    endedAt: row.ended_at === null ? null : new Date(n(row.ended_at)).toISOString(),
    durationS: n(row.duration_ms) / 1000,
    playedS: played / 1000,
    bytes: n(row.bytes),
    width: n(row.width),
    height: n(row.height),
    trimStartS: n(row.trim_start_ms) / 1000,
    trimEndS: row.trim_end_ms === null ? null : n(row.trim_end_ms) / 1000,
    hidden: n(row.hidden) === 1,
    rehearsal: n(row.rehearsal) === 1,
    segments: n(row.segments),
  };
}

/**
 * The recordings: one directory per publish session (under DATA_DIR/recordings, or in a bucket) holding
 * the packager's own init and segment files (or the relayed origin's, fMP4 or MPEG-TS), and their rows. A segment's row is written after its file is
 * complete, so the rows always name whole files (what a crash leaves behind plays).
 */
export class RecordingStore {
  constructor(
    private readonly store: Store,
    readonly files: RecordingFiles,
    private readonly log: Logger,
  ) {}

  /** Recordings a crash left "recording" are closed as interrupted, with what they hold. */
  async recoverInterrupted(now = Date.now()): Promise<void> {
    await this.store.run("UPDATE recordings SET state = 'interrupted', ended_at = COALESCE(ended_at, ?) WHERE state = 'recording'", now);
  }

  /**
   * A new recording, of the ingest's own stream or (`origin`) of a relayed origin's. Made while the doors
   * are closed, it is a rehearsal: kept out of the replay unless the streamer keeps it (or opens the doors
   * while it goes on).
   */
  async begin(startedAt: number, width: number, height: number, origin: string | null = null): Promise<{ id: number; dir: string }> {
    // The directory is made with the first file: a recording that cannot be written is still listed, failed.
    const dir = `${new Date(startedAt).toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
    const doors = await this.store.get<{ is_active: number }>("SELECT is_active FROM livestream_settings WHERE id = 1");
    const rehearsal = Number(doors?.is_active ?? 1) === 1 ? 0 : 1;
    const title = `${rehearsal ? "Rehearsal" : "Live session"} of ${new Date(startedAt).toISOString().slice(0, 16).replace("T", " ")} UTC`;
    const row = await this.store.get<{ id: number }>(
      "INSERT INTO recordings (dir, title, state, started_at, width, height, origin, rehearsal, hidden) VALUES (?, ?, 'recording', ?, ?, ?, ?, ?, ?) RETURNING id",
      dir,
      title,
      startedAt,
      width,
      height,
      origin,
      rehearsal,
      rehearsal,
    );
    return { id: n(row!.id), dir };
  }

  /** Writes one complete segment (and its init, the first time) and then its row. */
  async addSegment(recording: { id: number; dir: string }, seq: number, segment: KeptSegment, startMs: number, initsWritten: Set<string>): Promise<number> {
    let written = 0;
    const { init } = segment;
    if (init && !initsWritten.has(init.name)) {
      await this.files.write(`${recording.dir}/${init.name}`, init.bytes);
      initsWritten.add(init.name);
      written += init.bytes.length;
    }
    const file = `seg-${seq}.${init ? "m4s" : "ts"}`;
    await this.files.write(`${recording.dir}/${file}`, segment.bytes);
    written += segment.bytes.length;
    const durationMs = Math.round(segment.duration * 1000);
    await this.store.tx(async () => {
      await this.store.run(
        "INSERT INTO recording_segments (recording_id, seq, file, init_file, start_ms, duration_ms, program_date_time, bytes, origin_msn) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        recording.id,
        seq,
        file,
        // MPEG-TS has no init file: its name is left empty.
        init?.name ?? "",
        startMs,
        durationMs,
        segment.programDateTime,
        segment.bytes.length,
        segment.originMsn ?? null,
      );
      await this.store.run("UPDATE recordings SET duration_ms = ?, bytes = bytes + ? WHERE id = ?", startMs + durationMs, written, recording.id);
    });
    return durationMs;
  }

  async finish(id: number, state: "complete" | "failed", failure: string | null, now = Date.now()): Promise<void> {
    await this.store.run("UPDATE recordings SET state = ?, failure = ?, ended_at = ? WHERE id = ? AND state = 'recording'", state, failure, now, id);
  }

  private async rows(where = "", ...params: (string | number)[]): Promise<RecordingRow[]> {
    return this.store.all<RecordingRow>(
      `SELECT r.*, (SELECT COUNT(*) FROM recording_segments s WHERE s.recording_id = r.id) AS segments FROM recordings r ${where} ORDER BY r.started_at, r.id`,
      ...params,
    );
  }

  /** The newest kept segment of any recording (the one that ends last), or null when none is kept. */
  async keptPosition(): Promise<KeptPosition | null> {
    const row = await this.store.get<{ until: number; origin: string | null; msn: number | null }>(
      `SELECT s.program_date_time + s.duration_ms AS until, r.origin AS origin, s.origin_msn AS msn
         FROM recording_segments s JOIN recordings r ON r.id = s.recording_id
        ORDER BY until DESC, s.recording_id DESC, s.seq DESC LIMIT 1`,
    );
    if (!row) return null;
    return { until: Number(row.until), origin: row.origin, msn: row.msn === null ? null : Number(row.msn) };
  }

  async segmentsOf(id: number): Promise<SegmentRow[]> {
    return this.store.all<SegmentRow>("SELECT * FROM recording_segments WHERE recording_id = ? ORDER BY seq", id);
  }

  async list(): Promise<RecordingsView> {
    const rows = await this.rows();
    const recordings: RecordingView[] = [];
    for (const row of rows) {
      const played = playedSegments(row, await this.segmentsOf(n(row.id))).reduce((t, s) => t + n(s.duration_ms), 0);
      recordings.push(toView(row, played));
    }
    return { recordings, totalBytes: recordings.reduce((t, r) => t + r.bytes, 0) };
  }

  async find(id: number): Promise<RecordingRow> {
    const [row] = await this.rows("WHERE r.id = ?", id);
    if (!row) throw notFound("No such recording");
    return row;
  }

  async view(id: number): Promise<RecordingView> {
    const row = await this.find(id);
    const played = playedSegments(row, await this.segmentsOf(id)).reduce((t, s) => t + n(s.duration_ms), 0);
    return toView(row, played);
  }

  private kept: { writes: number; recordings: Replayable[] } | null = null;
  /** Whether a kept file (which never changes) starts on a keyframe, by key; and an init's video track. */
  private readonly keyframeStarts = new Map<string, boolean>();
  private readonly videoTracks = new Map<string, number | null>();

  /**
   * A recording's segments that play: those inside its trims, from the first whose picture starts on a
   * keyframe. A trim (or a relayed run) may begin where the publisher's keyframes were further apart than a
   * segment: a player shows nothing of what comes before the next keyframe, and across a discontinuity
   * hls.js stalls on the hole that leaves.
   */
  async played(row: RecordingRow, segments: SegmentRow[]): Promise<SegmentRow[]> {
    const inside = playedSegments(row, segments);
    const limit = Math.min(inside.length, KEYFRAME_LOOKAHEAD);
    for (let i = 0; i < limit; i++) {
      if (await this.startsOnKeyframe(row, inside[i]!)) return i === 0 ? inside : inside.slice(i);
    }
    // No keyframe near the start (or none that can be told): played as it is.
    return inside;
  }

  /** Whether the segment's picture starts on a keyframe; true without a picture, or where its files cannot be read. */
  private async startsOnKeyframe(row: { dir: string }, segment: SegmentRow): Promise<boolean> {
    const key = this.fileKey(row, segment.file);
    const known = this.keyframeStarts.get(key);
    if (known !== undefined) return known;
    let starts = true;
    try {
      if (isTsFile(segment.file)) {
        starts = demuxTs(await this.files.read(key), new TsClock()).video?.frames[0]?.keyframe ?? true;
      } else {
        const initKey = this.fileKey(row, segment.init_file);
        const init = await this.files.read(initKey);
        if (!this.videoTracks.has(initKey)) this.videoTracks.set(initKey, videoTrackId(init));
        const track = this.videoTracks.get(initKey);
        if (track !== null && track !== undefined) starts = startsOnSync(await this.files.read(key), init, track) ?? true;
      }
    } catch {
      // Unreadable here: it is served (or refused) as it is, as before.
      return true;
    }
    this.keyframeStarts.set(key, starts);
    return starts;
  }

  /**
   * The recordings the replay plays, oldest first, each with the segments inside its trims. Every replay
   * request asks (its playlist and each segment), so it is read once per change of the recordings' tables.
   */
  async replayable(): Promise<Replayable[]> {
    const writes = this.store.writesTo(RECORDING_TABLES);
    if (this.kept?.writes === writes) return this.kept.recordings;
    const out: Replayable[] = [];
    for (const row of await this.rows("WHERE r.hidden = 0")) {
      const segments = await this.played(row, await this.segmentsOf(n(row.id)));
      if (segments.length) out.push({ row, segments });
    }
    // Inside a transaction that may still roll back, nothing is kept.
    if (!this.store.inTransaction()) this.kept = { writes, recordings: out };
    return out;
  }

  /** Renames, trims or hides; refused whole (nothing changed) when a trim falls outside or crosses the other. */
  async patch(id: number, body: RecordingPatchBody): Promise<RecordingView> {
    const row = await this.find(id);
    const duration = n(row.duration_ms);
    const start = body.trimStartS === undefined ? n(row.trim_start_ms) : Math.round(body.trimStartS * 1000);
    const end = body.trimEndS === undefined ? (row.trim_end_ms === null ? null : n(row.trim_end_ms)) : body.trimEndS === null ? null : Math.round(body.trimEndS * 1000);
    if (body.trimStartS !== undefined && start >= duration) throw badRequest(`Trim start must be inside the recording (0–${(duration / 1000).toFixed(1)} s)`);
    if (end !== null && body.trimEndS !== undefined && end > duration) throw badRequest(`Trim end must be inside the recording (0–${(duration / 1000).toFixed(1)} s)`);
    if (end !== null && end <= start) throw badRequest("Trim end must come after trim start");
    await this.store.run(
      "UPDATE recordings SET title = ?, trim_start_ms = ?, trim_end_ms = ?, hidden = ? WHERE id = ?",
      body.title ?? row.title,
      start,
      end,
      body.hidden === undefined ? n(row.hidden) : body.hidden ? 1 : 0,
      id,
    );
    return this.view(id);
  }

  /** Deletes a recording and frees its space; one still being written is refused. */
  async remove(id: number): Promise<void> {
    const row = await this.find(id);
    if (row.state === "recording") throw conflict("This recording is still being written; stop the stream first");
    await this.store.run("DELETE FROM recordings WHERE id = ?", id);
    await this.files.removeDir(row.dir).catch((error: unknown) => this.log.warn(`recordings: could not remove ${row.dir} from ${this.files.where}: ${String(error)}`));
  }

  /** The key of one of a recording's files (for serving), checked to be one of its own kinds of name. */
  fileKey(row: { dir: string }, file: string): string {
    if (!/^(seg-\d+\.(m4s|ts)|init-\d+\.mp4)$/.test(file)) throw notFound();
    return `${row.dir}/${file}`;
  }

  /** Free bytes where the recordings are written (null where it cannot be told). */
  freeBytes(): number | null {
    return this.files.freeBytes();
  }
}
