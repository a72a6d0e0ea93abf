import { parseByteRange } from "../../http/byte-range.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { rebase, startSeconds, timescales } from "./rebase.ts";
import { isTsFile, type RecordingStore, type SegmentRow } from "./recordings.ts";
import { demuxTs, TsClock, TsError, type DemuxedTs } from "../../media/formats/mpegts.ts";
import { TsToMp4 } from "../../media/formats/ts-to-fmp4.ts";

/** What the panel is told of a recording whose rows are there and whose files are not (a restore without them). */
export const FILES_MISSING_MESSAGE = "This recording's files are missing: restore them from a backup, or delete the recording";

/** Reads a recording's file, a missing one (on the disk or in the bucket) answered 404 rather than 500. */
async function readKept(read: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await read();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "NoSuchKey") throw notFound(FILES_MISSING_MESSAGE);
    throw error;
  }
}

/** The download's file name, from the recording's title. */
function fileName(title: string, id: number): string {
  return `${
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, "")
      .trim()
      .replace(/\s+/g, "-") || `recording-${id}`
  }.mp4`;
}

function downloadHeaders(headers: Headers, name: string): Headers {
  const out = new Headers(headers);
  out.set("content-type", "video/mp4");
  out.set("content-disposition", `attachment; filename="${name}"`);
  out.set("cache-control", "private, no-store");
  return out;
}

/**
 * A recording as one `.mp4` file: its init segment followed by its fMP4 segments (those inside the trims),
 * which together are a fragmented MP4 any player and editor opens — no re-encoding, and no copy of the
 * whole file: the pieces are streamed from disk one after another (their decode times moved to start at
 * zero), ranges included (a resumed download).
 * A recording still being written is refused until it ends: its length is not known yet.
 */
export async function recordingDownload(recordings: RecordingStore, id: number, range: string | null, headers: Headers): Promise<Response> {
  const row = await recordings.find(id);
  if (row.state === "recording") throw conflict("This recording is still being written; it can be downloaded once the stream ends");
  // What the replay plays of it: inside the trims, from a keyframe.
  const segments = await recordings.played(row, await recordings.segmentsOf(id));
  if (segments.length === 0) throw conflict("This recording holds no complete segment to download");
  if (isTsFile(segments[0]!.file)) return tsDownload(recordings, row, segments, downloadHeaders(headers, fileName(row.title, id)));
  // One init: a session whose codec changed part-way is cut where it changed (a file has one init).
  const init = segments[0]!.init_file;
  const store = recordings.files;
  const own = segments.filter((s) => s.init_file === init);
  const files = [recordings.fileKey(row, init), ...own.map((s) => recordings.fileKey(row, s.file))];
  const initBytes = await readKept(() => store.read(files[0]!));
  const sizes = [initBytes.length, ...own.map((s) => Number(s.bytes))];
  // The file starts at zero however much was trimmed off, or however late the first segment began.
  const scales = timescales(initBytes);
  const offset0 = startSeconds(await readKept(() => store.read(files[1]!)), scales);
  const total = sizes.reduce((a, b) => a + b, 0);
  const out = downloadHeaders(headers, fileName(row.title, id));
  out.set("accept-ranges", "bytes");
  const wanted = parseByteRange(range, total);
  if (wanted === "unsatisfiable") {
    out.set("content-range", `bytes */${total}`);
    return new Response(null, { status: 416, headers: out });
  }
  const start = wanted?.start ?? 0;
  const end = wanted?.end ?? total - 1;
  out.set("content-length", String(end - start + 1));
  if (wanted) out.set("content-range", `bytes ${start}-${end}/${total}`);
  let index = 0;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // The next file that overlaps [start, end], read in its overlapping slice.
      while (index < files.length) {
        const fileStart = offset;
        const fileEnd = offset + sizes[index]! - 1;
        const file = files[index]!;
        index++;
        offset += sizes[index - 1]!;
        if (fileEnd < start || fileStart > end) continue;
        const from = Math.max(start, fileStart) - fileStart;
        const to = Math.min(end, fileEnd) - fileStart + 1;
        const whole = index === 1 ? initBytes : await store.read(file);
        // The init as it is; each segment (a few hundred KiB) moved to start at zero.
        const bytes = index === 1 ? whole : rebase(whole, scales, offset0);
        controller.enqueue(bytes.subarray(from, to));
        return;
      }
      controller.close();
    },
  });
  return new Response(stream, { status: wanted ? 206 : 200, headers: out });
}

/**
 * A relayed MPEG-TS recording as one fragmented MP4: each segment read, its frames taken out of MPEG-TS
 * (H.264 and AAC) and written as one fragment, streamed as it is made. The length is not known before the
 * last segment is remuxed, so the file is sent whole (a range asked for is answered with all of it).
 * Codecs an MP4 of ours cannot carry are refused (409) before anything is sent.
 */
async function tsDownload(recordings: RecordingStore, row: { dir: string }, segments: SegmentRow[], headers: Headers): Promise<Response> {
  const clock = new TsClock();
  const read = async (s: SegmentRow) => demuxTs(await readKept(() => recordings.files.read(recordings.fileKey(row, s.file))), clock);
  let mp4: TsToMp4;
  let first: DemuxedTs;
  try {
    first = await read(segments[0]!);
    mp4 = new TsToMp4(first);
  } catch (error) {
    if (error instanceof TsError) throw conflict(`This recording cannot be downloaded as an MP4: ${error.message}`);
    throw error;
  }
  headers.set("accept-ranges", "none");
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index === 0) {
        index++;
        controller.enqueue(mp4.init);
        const fragment = mp4.fragment(first);
        if (fragment) controller.enqueue(fragment);
        return;
      }
      while (index < segments.length) {
        const segment = segments[index++]!;
        let fragment: Uint8Array | null;
        try {
          fragment = mp4.fragment(await read(segment));
        } catch (error) {
          // A damaged segment is left out; the file goes on with the next.
          if (!(error instanceof TsError)) throw error;
          fragment = null;
        }
        if (fragment) return controller.enqueue(fragment);
      }
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers });
}
