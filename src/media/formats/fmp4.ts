/**
 * The fMP4 (CMAF) writer: an init segment (ftyp + moov) per publish session, and one moof + mdat fragment
 * per LL-HLS part. Box layouts follow ISO/IEC 14496-12 and -14 as MediaMTX's mediacommon writes them.
 */
import type { AudioConfig, VideoConfig } from "../stream.ts";

/** 90 kHz, as MPEG systems time video. */
export const VIDEO_TIMESCALE = 90_000;

export type InitTrack = { id: number; kind: "video"; config: VideoConfig } | { id: number; kind: "audio"; config: AudioConfig };

export interface FragmentSample {
  /** In the track's timescale. */
  duration: number;
  /** Presentation minus decode time, in the track's timescale (negative allowed: version 1 trun). */
  compositionOffset: number;
  sync: boolean;
  data: Uint8Array;
}

export interface FragmentTrack {
  id: number;
  /** Decode time of the first sample, in the track's timescale. */
  baseDecodeTime: number;
  samples: FragmentSample[];
}

export function trackTimescale(track: InitTrack): number {
  return track.kind === "video" ? VIDEO_TIMESCALE : track.config.sampleRate;
}

const TEXT = new TextEncoder();

/** Grows as boxes are written; box sizes are patched when a box closes. */
class BoxWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;
  private open: number[] = [];

  /** `capacity`: what it is expected to hold, so that a fragment is written into one buffer, not regrown. */
  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.room(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
    return this;
  }
  u16(v: number): this {
    this.room(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
    return this;
  }
  u24(v: number): this {
    return this.u8((v >>> 16) & 0xff).u16(v & 0xffff);
  }
  u32(v: number): this {
    this.room(4);
    this.view.setUint32(this.length, v >>> 0);
    this.length += 4;
    return this;
  }
  i32(v: number): this {
    this.room(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
    return this;
  }
  u64(v: number): this {
    this.room(8);
    this.view.setBigUint64(this.length, BigInt(Math.max(0, Math.floor(v))));
    this.length += 8;
    return this;
  }
  zeros(n: number): this {
    this.room(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  fourcc(s: string): this {
    return this.bytes(TEXT.encode(s));
  }

  start(type: string): number {
    const at = this.length;
    this.open.push(at);
    this.u32(0).fourcc(type);
    return at;
  }
  startFull(type: string, version: number, flags: number): number {
    const at = this.start(type);
    this.u8(version).u24(flags);
    return at;
  }
  end(): void {
    const at = this.open.pop();
    if (at === undefined) throw new Error("no open box");
    this.view.setUint32(at, this.length - at);
  }
  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0);
  }
  patchI32(at: number, v: number): void {
    this.view.setInt32(at, v);
  }
  /** The bytes written: a view when little room is left over (a sized fragment), else a copy of just them. */
  result(): Uint8Array {
    return this.buf.length - this.length <= 4096 ? this.buf.subarray(0, this.length) : this.buf.slice(0, this.length);
  }
}

const MATRIX = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];

function writeMatrix(w: BoxWriter): void {
  for (const v of MATRIX) w.u32(v);
}

/** The init segment: what a player needs before any fragment (codecs, timescales, track ids). */
export function writeInit(tracks: InitTrack[]): Uint8Array {
  const w = new BoxWriter();
  w.start("ftyp");
  w.fourcc("iso6").u32(512);
  for (const brand of ["iso6", "cmfc", "isom", "mp41"]) w.fourcc(brand);
  w.end();

  w.start("moov");
  w.startFull("mvhd", 0, 0);
  w.u32(0).u32(0).u32(1000).u32(0); // creation, modification, timescale, duration
  w.u32(0x00010000).u16(0x0100).zeros(10);
  writeMatrix(w);
  w.zeros(24);
  w.u32(Math.max(0, ...tracks.map((t) => t.id)) + 1);
  w.end();

  for (const track of tracks) writeTrak(w, track);

  w.start("mvex");
  for (const track of tracks) {
    w.startFull("trex", 0, 0);
    w.u32(track.id).u32(1).u32(0).u32(0).u32(0);
    w.end();
  }
  w.end();
  w.end();
  return w.result();
}

function writeTrak(w: BoxWriter, track: InitTrack): void {
  const video = track.kind === "video";
  w.start("trak");
  w.startFull("tkhd", 0, 3); // enabled, in movie
  w.u32(0).u32(0).u32(track.id).u32(0).u32(0); // creation, modification, id, reserved, duration
  w.zeros(8);
  w.u16(0)
    .u16(video ? 0 : 1)
    .u16(video ? 0 : 0x0100)
    .u16(0); // layer, alternate group, volume
  writeMatrix(w);
  w.u32(video ? track.config.width * 65536 : 0).u32(video ? track.config.height * 65536 : 0);
  w.end();

  w.start("mdia");
  w.startFull("mdhd", 0, 0);
  w.u32(0).u32(0).u32(trackTimescale(track)).u32(0);
  w.u16(0x55c4).u16(0); // language "und"
  w.end();
  w.startFull("hdlr", 0, 0);
  w.u32(0)
    .fourcc(video ? "vide" : "soun")
    .zeros(12);
  w.bytes(TEXT.encode(video ? "VideoHandler\0" : "SoundHandler\0"));
  w.end();

  w.start("minf");
  if (video) {
    w.startFull("vmhd", 0, 1);
    w.zeros(8);
  } else {
    w.startFull("smhd", 0, 0);
    w.zeros(4);
  }
  w.end();
  w.start("dinf");
  w.startFull("dref", 0, 0);
  w.u32(1);
  w.startFull("url ", 0, 1); // media in this file
  w.end();
  w.end();
  w.end();

  w.start("stbl");
  w.startFull("stsd", 0, 0);
  w.u32(1);
  if (track.kind === "video") writeVisualSampleEntry(w, track.config);
  else writeAudioSampleEntry(w, track.config, track.id);
  w.end();
  for (const empty of ["stts", "stsc", "stco"]) {
    w.startFull(empty, 0, 0);
    w.u32(0);
    w.end();
  }
  w.startFull("stsz", 0, 0);
  w.u32(0).u32(0);
  w.end();
  w.end(); // stbl
  w.end(); // minf
  w.end(); // mdia
  w.end(); // trak
}

const VISUAL_ENTRY: Record<VideoConfig["codec"], [entry: string, config: string]> = {
  h264: ["avc1", "avcC"],
  hevc: ["hvc1", "hvcC"],
  av1: ["av01", "av1C"],
};

function writeVisualSampleEntry(w: BoxWriter, config: VideoConfig): void {
  const [entry, box] = VISUAL_ENTRY[config.codec];
  w.start(entry);
  w.zeros(6).u16(1); // reserved, data_reference_index
  w.u16(0).u16(0).zeros(12); // pre_defined, reserved, pre_defined
  w.u16(config.width).u16(config.height);
  w.u32(0x00480000).u32(0x00480000).u32(0).u16(1); // 72 dpi, reserved, frame_count
  w.zeros(32); // compressorname
  w.u16(0x0018).u16(0xffff); // depth, pre_defined = -1
  w.start(box);
  w.bytes(config.record);
  w.end();
  w.end();
}

/** An MPEG-4 descriptor header: tag, then the size in the 7-bits-per-byte form. */
function descriptor(w: BoxWriter, tag: number, size: number): void {
  w.u8(tag);
  const bytes: number[] = [];
  let rest = size;
  do {
    bytes.unshift(rest & 0x7f);
    rest >>>= 7;
  } while (rest > 0);
  bytes.forEach((b, i) => w.u8(i < bytes.length - 1 ? b | 0x80 : b));
}

function descriptorLength(size: number): number {
  let n = 1;
  while (size >= 1 << (7 * n)) n++;
  return 1 + n + size;
}

function writeAudioSampleEntry(w: BoxWriter, config: AudioConfig, trackId: number): void {
  w.start("mp4a");
  w.zeros(6).u16(1);
  w.zeros(8);
  w.u16(config.channels).u16(16).u16(0).u16(0);
  // 16.16 fixed point; rates above 65535 are told by the AudioSpecificConfig alone
  w.u32(config.sampleRate <= 0xffff ? config.sampleRate * 65536 : 0);

  w.startFull("esds", 0, 0);
  const decoderSpecific = descriptorLength(config.asc.length);
  const decoderConfig = descriptorLength(13 + decoderSpecific);
  const slConfig = descriptorLength(1);
  descriptor(w, 0x03, 3 + decoderConfig + slConfig); // ES_Descriptor
  w.u16(trackId).u8(0);
  descriptor(w, 0x04, 13 + decoderSpecific); // DecoderConfigDescriptor
  w.u8(0x40).u8(0x15).u24(0).u32(0).u32(0); // MPEG-4 Audio, audio stream, buffer size, max/avg bitrate
  descriptor(w, 0x05, config.asc.length);
  w.bytes(config.asc);
  descriptor(w, 0x06, 1); // SLConfigDescriptor
  w.u8(0x02);
  w.end();
  w.end();
}

/** sample_depends_on = 2 (an I-frame); a non-sync sample depends on others and is flagged non-sync. */
const SYNC_SAMPLE_FLAGS = 0x02000000;
const NON_SYNC_SAMPLE_FLAGS = 0x01010000;

/** One fragment (moof + mdat) holding each track's samples; data offsets are relative to the moof. */
export function writeFragment(sequenceNumber: number, tracks: FragmentTrack[]): Uint8Array {
  // The samples' bytes, and room for the boxes around them (a trun entry is at most 16 bytes a sample).
  let capacity = 512;
  for (const track of tracks) {
    capacity += 128;
    for (const sample of track.samples) capacity += sample.data.length + 16;
  }
  const w = new BoxWriter(capacity);
  const moof = w.start("moof");
  w.startFull("mfhd", 0, 0);
  w.u32(sequenceNumber);
  w.end();

  const dataOffsetFields: number[] = [];
  for (const track of tracks) {
    w.start("traf");
    w.startFull("tfhd", 0, 0x020000); // default-base-is-moof
    w.u32(track.id);
    w.end();
    w.startFull("tfdt", 1, 0);
    w.u64(track.baseDecodeTime);
    w.end();
    // data offset, duration, size, flags, composition offset present
    w.startFull("trun", 1, 0x000001 | 0x000100 | 0x000200 | 0x000400 | 0x000800);
    w.u32(track.samples.length);
    dataOffsetFields.push(w.length);
    w.i32(0);
    for (const sample of track.samples) {
      w.u32(sample.duration).u32(sample.data.length);
      w.u32(sample.sync ? SYNC_SAMPLE_FLAGS : NON_SYNC_SAMPLE_FLAGS);
      w.i32(sample.compositionOffset);
    }
    w.end();
    w.end();
  }
  w.end();

  let offset = w.length - moof + 8; // past the mdat header
  tracks.forEach((track, i) => {
    w.patchI32(dataOffsetFields[i]!, offset);
    for (const sample of track.samples) offset += sample.data.length;
  });
  w.start("mdat");
  for (const track of tracks) for (const sample of track.samples) w.bytes(sample.data);
  w.end();
  return w.result();
}
