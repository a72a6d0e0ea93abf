/**
 * Reads the video track of a fragmented MP4 that ffmpeg wrote (`-movflags frag_keyframe+empty_moov+default_base_moof`)
 * into a `VideoConfig` and frames, so codecs FLV cannot carry in Debian's ffmpeg (HEVC, AV1) can be fed to
 * the packager as an input would hand them over. For tests only.
 */
import type { VideoCodec, VideoConfig, VideoFrame } from "../../../src/media/stream.ts";

interface Box {
  type: string;
  start: number;
  /** Payload start and end. */
  body: number;
  end: number;
}

function* boxes(bytes: Uint8Array, from: number, to: number): Generator<Box> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = from;
  while (at + 8 <= to) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (size < 8) throw new Error(`bad box ${type}`);
    yield { type, start: at, body: at + 8, end: at + size };
    at += size;
  }
}

const child = (bytes: Uint8Array, box: Box, type: string, skip = 0) => [...boxes(bytes, box.body + skip, box.end)].find((b) => b.type === type);

const ENTRIES: Record<string, [VideoCodec, string]> = {
  avc1: ["h264", "avcC"],
  hvc1: ["hevc", "hvcC"],
  hev1: ["hevc", "hvcC"],
  av01: ["av1", "av1C"],
};

/** A track fragment's defaults (tfhd) and its decode time (tfdt). */
function fragmentHeader(bytes: Uint8Array, view: DataView, traf: Box) {
  const tfhd = child(bytes, traf, "tfhd")!;
  const tfhdFlags = view.getUint32(tfhd.body) & 0xffffff;
  let at = tfhd.body + 8;
  if (tfhdFlags & 0x01) at += 8;
  if (tfhdFlags & 0x02) at += 4;
  const defaultDuration = tfhdFlags & 0x08 ? view.getUint32(at) : 0;
  if (tfhdFlags & 0x08) at += 4;
  const defaultSize = tfhdFlags & 0x10 ? view.getUint32(at) : 0;
  if (tfhdFlags & 0x10) at += 4;
  const defaultFlags = tfhdFlags & 0x20 ? view.getUint32(at) : 0;
  const tfdt = child(bytes, traf, "tfdt")!;
  const baseDecodeTime = bytes[tfdt.body] === 1 ? Number(view.getBigUint64(tfdt.body + 4)) : view.getUint32(tfdt.body + 4);
  return { defaultDuration, defaultSize, defaultFlags, baseDecodeTime };
}

export function readFragmentedMp4(bytes: Uint8Array): { config: VideoConfig; frames: VideoFrame[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = [...boxes(bytes, 0, bytes.length)];
  const moov = top.find((b) => b.type === "moov")!;
  const trak = child(bytes, moov, "trak")!;
  const mdia = child(bytes, trak, "mdia")!;
  const mdhd = child(bytes, mdia, "mdhd")!;
  const timescale = view.getUint32(mdhd.body + (bytes[mdhd.body] === 1 ? 20 : 12));
  const stbl = child(bytes, child(bytes, mdia, "minf")!, "stbl")!;
  const stsd = child(bytes, stbl, "stsd")!;
  const entry = [...boxes(bytes, stsd.body + 8, stsd.end)][0]!; // after version, flags and the entry count
  const [codec, configType] =
    ENTRIES[entry.type] ??
    (() => {
      throw new Error(`unexpected sample entry ${entry.type}`);
    })();
  const record = child(bytes, entry, configType, 78)!;
  const config: VideoConfig = {
    codec,
    record: bytes.slice(record.body, record.end),
    width: view.getUint16(entry.body + 24),
    height: view.getUint16(entry.body + 26),
  };

  const frames: VideoFrame[] = [];
  const ms = (t: number) => Math.round((t * 1000) / timescale);
  for (const moof of top.filter((b) => b.type === "moof")) {
    const traf = child(bytes, moof, "traf")!;
    const { defaultDuration, defaultSize, defaultFlags, baseDecodeTime } = fragmentHeader(bytes, view, traf);
    let dts = baseDecodeTime;
    const trun = child(bytes, traf, "trun")!;
    const version = bytes[trun.body]!;
    const flags = view.getUint32(trun.body) & 0xffffff;
    const count = view.getUint32(trun.body + 4);
    let at = trun.body + 8;
    let data = moof.start + (flags & 0x01 ? view.getInt32(at) : 0);
    if (flags & 0x01) at += 4;
    const firstFlags = flags & 0x04 ? view.getUint32(at) : null;
    if (flags & 0x04) at += 4;
    for (let i = 0; i < count; i++) {
      const duration = flags & 0x100 ? view.getUint32((at += 4) - 4) : defaultDuration;
      const size = flags & 0x200 ? view.getUint32((at += 4) - 4) : defaultSize;
      let sampleFlags = flags & 0x400 ? view.getUint32((at += 4) - 4) : defaultFlags;
      if (i === 0 && firstFlags !== null) sampleFlags = firstFlags;
      const cto = flags & 0x800 ? (version === 1 ? view.getInt32((at += 4) - 4) : view.getUint32((at += 4) - 4)) : 0;
      frames.push({ dts: ms(dts), pts: ms(dts + cto), keyframe: (sampleFlags & 0x10000) === 0, data: bytes.slice(data, data + size) });
      data += size;
      dts += duration;
    }
  }
  return { config, frames };
}

/**
 * One track's run in each fragment that has it, in the file's order: its decode time (tfdt) and the sum of
 * its samples' durations, in the track's timescale. One run ending where the next begins is a timeline with
 * no gap.
 */
export function fragmentRuns(bytes: Uint8Array, trackId: number): { start: number; duration: number; samples: number }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const trafs = [...boxes(bytes, 0, bytes.length)].filter((b) => b.type === "moof").flatMap((moof) => [...boxes(bytes, moof.body, moof.end)].filter((b) => b.type === "traf"));
  return trafs
    .filter((traf) => view.getUint32(child(bytes, traf, "tfhd")!.body + 4) === trackId)
    .map((traf) => {
      const { defaultDuration, baseDecodeTime: start } = fragmentHeader(bytes, view, traf);
      const trun = child(bytes, traf, "trun")!;
      const flags = view.getUint32(trun.body) & 0xffffff;
      const samples = view.getUint32(trun.body + 4);
      let at = trun.body + 8 + (flags & 0x01 ? 4 : 0) + (flags & 0x04 ? 4 : 0);
      const stride = 4 * [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length;
      let duration = 0;
      for (let i = 0; i < samples; i++, at += stride) duration += flags & 0x100 ? view.getUint32(at) : defaultDuration;
      return { start, duration, samples };
    });
}
