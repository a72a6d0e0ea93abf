/**
 * Moves a recording's fragments to start at time zero, as a downloaded file should: each fragment's
 * `tfdt` (its decode time) less one offset, the same in seconds for every track so sound stays with the
 * picture. Only those 8-byte fields change; the file's length and everything else stay as they are.
 */

interface Box {
  type: string;
  start: number;
  /** Where its payload begins (past the header) and where the box ends. */
  body: number;
  end: number;
}

function boxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    out.push({ type, start: at, body: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (bytes: Uint8Array, box: Box, type: string) => boxes(bytes, box.body, box.end).find((b) => b.type === type);

/** Track id → timescale, from an init segment's moov (trak → tkhd, mdia → mdhd). */
export function timescales(init: Uint8Array): Map<number, number> {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const out = new Map<number, number>();
  const moov = boxes(init, 0, init.length).find((b) => b.type === "moov");
  if (!moov) return out;
  for (const trak of boxes(init, moov.body, moov.end).filter((b) => b.type === "trak")) {
    const tkhd = child(init, trak, "tkhd");
    const mdia = child(init, trak, "mdia");
    const mdhd = mdia && child(init, mdia, "mdhd");
    if (!tkhd || !mdhd) continue;
    const tkhdV1 = init[tkhd.body] === 1;
    const id = view.getUint32(tkhd.body + 4 + (tkhdV1 ? 16 : 8));
    const mdhdV1 = init[mdhd.body] === 1;
    out.set(id, view.getUint32(mdhd.body + 4 + (mdhdV1 ? 16 : 8)));
  }
  return out;
}

/** Each traf's track id and the offset of its tfdt's time field (and its version), in a segment's moofs. */
function decodeTimes(bytes: Uint8Array): { track: number; at: number; wide: boolean }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: { track: number; at: number; wide: boolean }[] = [];
  for (const moof of boxes(bytes, 0, bytes.length).filter((b) => b.type === "moof")) {
    for (const traf of boxes(bytes, moof.body, moof.end).filter((b) => b.type === "traf")) {
      const tfhd = child(bytes, traf, "tfhd");
      const tfdt = child(bytes, traf, "tfdt");
      if (!tfhd || !tfdt) continue;
      out.push({ track: view.getUint32(tfhd.body + 4), at: tfdt.body + 4, wide: bytes[tfdt.body] === 1 });
    }
  }
  return out;
}

/** The earliest decode time of the first segment, in seconds across its tracks: what the download starts at. */
export function startSeconds(firstSegment: Uint8Array, scales: Map<number, number>): number {
  const view = new DataView(firstSegment.buffer, firstSegment.byteOffset, firstSegment.byteLength);
  let start = Infinity;
  for (const t of decodeTimes(firstSegment)) {
    const scale = scales.get(t.track);
    if (!scale) continue;
    const value = t.wide ? Number(view.getBigUint64(t.at)) : view.getUint32(t.at);
    start = Math.min(start, value / scale);
  }
  return Number.isFinite(start) ? start : 0;
}

/** A copy of `segment` with every tfdt moved back by `seconds` (never below zero). */
export function rebase(segment: Uint8Array, scales: Map<number, number>, seconds: number): Uint8Array {
  const copy = new Uint8Array(segment);
  const view = new DataView(copy.buffer);
  for (const t of decodeTimes(copy)) {
    const scale = scales.get(t.track);
    if (!scale) continue;
    const shift = Math.round(seconds * scale);
    if (t.wide) view.setBigUint64(t.at, BigInt(Math.max(0, Number(view.getBigUint64(t.at)) - shift)));
    else view.setUint32(t.at, Math.max(0, view.getUint32(t.at) - shift));
  }
  return copy;
}

/** The picture size an init segment gives (its first track with one: tkhd's 16.16 width and height), or 0 × 0. */
export function initPictureSize(init: Uint8Array): { width: number; height: number } {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = boxes(init, 0, init.length).find((b) => b.type === "moov");
  for (const trak of moov ? boxes(init, moov.body, moov.end).filter((b) => b.type === "trak") : []) {
    const tkhd = child(init, trak, "tkhd");
    const at = tkhd && tkhd.body + (init[tkhd.body] === 1 ? 88 : 76);
    if (!tkhd || at! + 8 > tkhd.end) continue;
    const width = Math.round(view.getUint32(at!) / 65536);
    const height = Math.round(view.getUint32(at! + 4) / 65536);
    if (width && height) return { width, height };
  }
  return { width: 0, height: 0 };
}

/** The id of an init segment's video track (the trak whose handler is "vide"), null without one. */
export function videoTrackId(init: Uint8Array): number | null {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = boxes(init, 0, init.length).find((b) => b.type === "moov");
  for (const trak of moov ? boxes(init, moov.body, moov.end).filter((b) => b.type === "trak") : []) {
    const tkhd = child(init, trak, "tkhd");
    const mdia = child(init, trak, "mdia");
    const hdlr = mdia && child(init, mdia, "hdlr");
    if (!tkhd || !hdlr || hdlr.body + 12 > hdlr.end) continue;
    const handler = String.fromCharCode(...init.subarray(hdlr.body + 8, hdlr.body + 12));
    if (handler === "vide") return view.getUint32(tkhd.body + 4 + (init[tkhd.body] === 1 ? 16 : 8));
  }
  return null;
}

/** trex's default sample flags of `track` in an init segment (0: none given). */
function trexFlags(init: Uint8Array, track: number): number {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = boxes(init, 0, init.length).find((b) => b.type === "moov");
  const mvex = moov && child(init, moov, "mvex");
  for (const trex of mvex ? boxes(init, mvex.body, mvex.end).filter((b) => b.type === "trex") : []) {
    if (trex.body + 24 <= trex.end && view.getUint32(trex.body + 4) === track) return view.getUint32(trex.body + 20);
  }
  return 0;
}

/** sample_is_non_sync_sample, in an ISO BMFF sample's flags. */
const NON_SYNC = 0x00010000;

/**
 * Whether a segment's first sample of the track `track` is a sync sample (a keyframe), by its flags: the
 * trun's first-sample flags, its per-sample flags, the tfhd's defaults, or the init's trex. Null when the
 * segment holds no sample of that track.
 */
export function startsOnSync(segment: Uint8Array, init: Uint8Array, track: number): boolean | null {
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  for (const moof of boxes(segment, 0, segment.length).filter((b) => b.type === "moof")) {
    for (const traf of boxes(segment, moof.body, moof.end).filter((b) => b.type === "traf")) {
      const tfhd = child(segment, traf, "tfhd");
      const trun = child(segment, traf, "trun");
      if (!tfhd || !trun || tfhd.body + 8 > tfhd.end || view.getUint32(tfhd.body + 4) !== track) continue;
      if (trun.body + 8 > trun.end || view.getUint32(trun.body + 4) === 0) continue;
      const trunFlags = view.getUint32(trun.body) & 0xffffff;
      let at = trun.body + 8 + (trunFlags & 0x1 ? 4 : 0);
      let flags: number | null = null;
      if (trunFlags & 0x4) flags = view.getUint32(at);
      else if (trunFlags & 0x400) {
        at += (trunFlags & 0x100 ? 4 : 0) + (trunFlags & 0x200 ? 4 : 0);
        flags = view.getUint32(at);
      } else {
        const tfhdFlags = view.getUint32(tfhd.body) & 0xffffff;
        if (tfhdFlags & 0x20) {
          const offset = 8 + (tfhdFlags & 0x1 ? 8 : 0) + (tfhdFlags & 0x2 ? 4 : 0) + (tfhdFlags & 0x8 ? 4 : 0) + (tfhdFlags & 0x10 ? 4 : 0);
          flags = view.getUint32(tfhd.body + offset);
        }
      }
      return ((flags ?? trexFlags(init, track)) & NON_SYNC) === 0;
    }
  }
  return null;
}
