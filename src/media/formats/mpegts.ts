/**
 * MPEG-TS, as HLS origins send it, read back into the shapes MP4 stores: H.264 access units as
 * length-prefixed NAL units (Annex B start codes replaced, access unit delimiters dropped) with their
 * parameter sets, and AAC frames without their ADTS headers. Only what a relayed recording needs: the first
 * program, H.264 video and AAC audio; other streams are named so the caller can say why it stops.
 */
import { concat } from "../bytes.ts";

export class TsError extends Error {
  override name = "TsError";
}

const PACKET = 188;
const STREAM_H264 = 0x1b;
const STREAM_AAC = 0x0f;
/** Stream types a remux could not carry, by name (for the message). */
const OTHER_STREAMS: Record<number, string> = { 0x24: "HEVC", 0x03: "MP3", 0x04: "MP3", 0x81: "AC-3", 0x87: "E-AC-3", 0x02: "MPEG-2 video", 0x10: "MPEG-4 video" };
const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const WRAP = 2 ** 33;

/** Unwraps 33-bit 90 kHz times across a recording's segments: each time is taken nearest the one before. */
export class TsClock {
  private last: number | null = null;
  unwrap(time: number): number {
    if (this.last !== null) time += Math.round((this.last - time) / WRAP) * WRAP;
    this.last = time;
    return time;
  }
}

export interface TsVideoFrame {
  /** 90 kHz, unwrapped. */
  dts: number;
  pts: number;
  keyframe: boolean;
  /** Length-prefixed (4-byte) NAL units. */
  data: Uint8Array;
}

export interface TsAudioFrame {
  /** 90 kHz, unwrapped. */
  pts: number;
  /** One raw AAC frame (1,024 samples). */
  data: Uint8Array;
}

export interface DemuxedTs {
  video: { sps: Uint8Array | null; pps: Uint8Array | null; frames: TsVideoFrame[] } | null;
  audio: { asc: Uint8Array; sampleRate: number; channels: number; frames: TsAudioFrame[] } | null;
  /** Streams of the program that are neither H.264 nor AAC (by name). */
  others: string[];
}

/** A 33-bit PES time (PTS or DTS) at `at`. */
function readTime(b: Uint8Array, at: number): number {
  return ((b[at]! >> 1) & 0x07) * 2 ** 30 + ((b[at + 1]! << 7) | (b[at + 2]! >> 1)) * 2 ** 15 + ((b[at + 3]! << 7) | (b[at + 4]! >> 1));
}

/** The NAL units of an Annex B byte stream (start codes and trailing zero bytes removed). */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  const push = (end: number) => {
    let e = end;
    while (e > start && data[e - 1] === 0) e--;
    if (e > start) out.push(data.subarray(start, e));
  };
  while (i + 2 < data.length) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      if (start >= 0) push(i);
      i += 3;
      start = i;
    } else i++;
  }
  if (start >= 0) push(data.length);
  return out;
}

function toAvcc(nals: Uint8Array[]): Uint8Array {
  const size = nals.reduce((t, n) => t + 4 + n.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const nal of nals) {
    view.setUint32(at, nal.length);
    out.set(nal, at + 4);
    at += 4 + nal.length;
  }
  return out;
}

interface Pes {
  pts: number | null;
  dts: number | null;
  payload: Uint8Array;
}

function readPes(chunks: Uint8Array[]): Pes | null {
  const data = chunks.length === 1 ? chunks[0]! : concat(chunks);
  if (data.length < 9 || data[0] !== 0 || data[1] !== 0 || data[2] !== 1) return null;
  const flags = data[7]! >> 6;
  const headerLength = data[8]!;
  if (9 + headerLength > data.length) return null;
  const pts = flags & 2 && headerLength >= 5 ? readTime(data, 9) : null;
  const dts = flags === 3 && headerLength >= 10 ? readTime(data, 14) : pts;
  return { pts, dts, payload: data.subarray(9 + headerLength) };
}

/** The section a PSI payload's pointer field leads to (PAT or PMT), its CRC left off. */
function section(payload: Uint8Array): Uint8Array | null {
  const at = 1 + payload[0]!;
  if (at + 3 > payload.length) return null;
  const length = ((payload[at + 1]! & 0x0f) << 8) | payload[at + 2]!;
  const end = Math.min(payload.length, at + 3 + length - 4);
  return end > at ? payload.subarray(at, end) : null;
}

/** Reads one segment's packets; times are unwrapped on `clock`, shared by a recording's segments in order. */
export function demuxTs(bytes: Uint8Array, clock: TsClock): DemuxedTs {
  if (bytes.length < PACKET || bytes[0] !== 0x47) throw new TsError("not an MPEG-TS segment");
  let pmtPid = -1;
  const streams = new Map<number, number>();
  const pending = new Map<number, Uint8Array[]>();
  const out: DemuxedTs = { video: null, audio: null, others: [] };
  let adtsRest: Uint8Array | null = null;

  const takeVideo = (pes: Pes) => {
    const video = (out.video ??= { sps: null, pps: null, frames: [] });
    const nals = splitAnnexB(pes.payload).filter((nal) => (nal[0]! & 0x1f) !== 9);
    for (const nal of nals) {
      const type = nal[0]! & 0x1f;
      if (type === 7) video.sps ??= nal.slice();
      else if (type === 8) video.pps ??= nal.slice();
    }
    if (!nals.length) return;
    const keyframe = nals.some((nal) => (nal[0]! & 0x1f) === 5);
    const last = video.frames.at(-1);
    // A PES without a time continues the access unit before it.
    if (pes.pts === null || pes.dts === null) {
      if (last) {
        last.data = concat([last.data, toAvcc(nals)]);
        last.keyframe ||= keyframe;
      }
      return;
    }
    const dts = clock.unwrap(pes.dts);
    video.frames.push({ dts, pts: dts + (pes.pts - pes.dts), keyframe, data: toAvcc(nals) });
  };

  const takeAudio = (pes: Pes) => {
    const data: Uint8Array = adtsRest ? concat([adtsRest, pes.payload]) : pes.payload;
    adtsRest = null;
    let pts = pes.pts === null ? null : clock.unwrap(pes.pts);
    let at = 0;
    while (at + 7 <= data.length) {
      if (data[at] !== 0xff || (data[at + 1]! & 0xf0) !== 0xf0) {
        at++;
        continue;
      }
      const header = data[at + 1]! & 1 ? 7 : 9;
      const profile = data[at + 2]! >> 6;
      const rateIndex = (data[at + 2]! >> 2) & 0x0f;
      const channels = ((data[at + 2]! & 1) << 2) | (data[at + 3]! >> 6);
      const length = ((data[at + 3]! & 3) << 11) | (data[at + 4]! << 3) | (data[at + 5]! >> 5);
      const sampleRate = AAC_RATES[rateIndex];
      if (!sampleRate || length < header) throw new TsError("an ADTS header out of range");
      if (at + length > data.length) break;
      if (!out.audio) {
        const objectType = profile + 1;
        const asc = new Uint8Array([(objectType << 3) | (rateIndex >> 1), ((rateIndex & 1) << 7) | (channels << 3)]);
        out.audio = { asc, sampleRate, channels, frames: [] };
      }
      const last = out.audio.frames.at(-1);
      const framePts = pts ?? (last ? last.pts + (1024 * 90000) / out.audio.sampleRate : null);
      if (framePts !== null) out.audio.frames.push({ pts: framePts, data: data.slice(at + header, at + length) });
      pts = null;
      at += length;
    }
    if (at < data.length) adtsRest = data.slice(at);
  };

  const flush = (pid: number) => {
    const chunks = pending.get(pid);
    pending.delete(pid);
    if (!chunks?.length) return;
    const pes = readPes(chunks);
    if (!pes) return;
    if (streams.get(pid) === STREAM_H264) takeVideo(pes);
    else takeAudio(pes);
  };

  for (let at = 0; at + PACKET <= bytes.length; at += PACKET) {
    if (bytes[at] !== 0x47) throw new TsError("MPEG-TS packets out of step");
    const start = (bytes[at + 1]! & 0x40) !== 0;
    const pid = ((bytes[at + 1]! & 0x1f) << 8) | bytes[at + 2]!;
    const adaptation = (bytes[at + 3]! >> 4) & 3;
    let from = at + 4;
    if (adaptation & 2) from += 1 + bytes[from]!;
    if (!(adaptation & 1) || from >= at + PACKET) continue;
    const payload = bytes.subarray(from, at + PACKET);
    if (pid === 0 && start) {
      const pat = section(payload);
      // The first program's map (program number 0 is the network information table).
      for (let p = 8; pat && p + 4 <= pat.length && pmtPid === -1; p += 4) {
        if (((pat[p]! << 8) | pat[p + 1]!) !== 0) pmtPid = ((pat[p + 2]! & 0x1f) << 8) | pat[p + 3]!;
      }
    } else if (pid === pmtPid && start && streams.size === 0) {
      const pmt = section(payload);
      if (!pmt || pmt.length < 12) continue;
      let p = 12 + (((pmt[10]! & 0x0f) << 8) | pmt[11]!);
      while (p + 5 <= pmt.length) {
        const type = pmt[p]!;
        const esPid = ((pmt[p + 1]! & 0x1f) << 8) | pmt[p + 2]!;
        if (type === STREAM_H264 || type === STREAM_AAC) streams.set(esPid, type);
        else if (OTHER_STREAMS[type]) out.others.push(OTHER_STREAMS[type]);
        p += 5 + (((pmt[p + 3]! & 0x0f) << 8) | pmt[p + 4]!);
      }
    } else if (streams.has(pid)) {
      if (start) flush(pid);
      const chunks = pending.get(pid);
      if (chunks) chunks.push(payload);
      else if (start) pending.set(pid, [payload]);
    }
  }
  for (const pid of [...pending.keys()]) flush(pid);
  return out;
}
