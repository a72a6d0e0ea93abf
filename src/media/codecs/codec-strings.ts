/** RFC 6381 codec strings (the multivariant playlist's CODECS) read from the decoder configuration records. */
import type { AudioConfig, VideoConfig } from "../stream.ts";

const hex2 = (n: number) => n.toString(16).toUpperCase().padStart(2, "0");

/** avc1.PPCCLL: profile, constraint flags and level, bytes 1–3 of the avcC record. */
function avcCodec(record: Uint8Array): string {
  if (record.length < 4) return "avc1.42E01E";
  return `avc1.${hex2(record[1]!)}${hex2(record[2]!)}${hex2(record[3]!)}`;
}

/** hvc1.[space]profile.compat(reversed).tier+level.constraints, from the hvcC record's profile_tier_level. */
function hevcCodec(record: Uint8Array): string {
  if (record.length < 13) return "hvc1.1.6.L93.B0";
  const space = ["", "A", "B", "C"][record[1]! >> 6];
  const tier = record[1]! & 0x20 ? "H" : "L";
  const profile = record[1]! & 0x1f;
  let compat = ((record[2]! << 24) | (record[3]! << 16) | (record[4]! << 8) | record[5]!) >>> 0;
  let reversed = 0;
  for (let i = 0; i < 32; i++) {
    reversed = ((reversed << 1) | (compat & 1)) >>> 0;
    compat >>>= 1;
  }
  const constraints = Array.from(record.subarray(6, 12));
  while (constraints.length > 0 && constraints[constraints.length - 1] === 0) constraints.pop();
  const tail = constraints.map((b) => "." + b.toString(16).toUpperCase()).join("");
  return `hvc1.${space}${profile}.${reversed.toString(16).toUpperCase()}.${tier}${record[12]}${tail}`;
}

/** av01.P.LLT.DD from the av1C record's sequence header fields. */
function av1Codec(record: Uint8Array): string {
  if (record.length < 3) return "av01.0.04M.08";
  const profile = record[1]! >> 5;
  const level = record[1]! & 0x1f;
  const tier = record[2]! & 0x80 ? "H" : "M";
  const highBitdepth = (record[2]! & 0x40) !== 0;
  const twelveBit = (record[2]! & 0x20) !== 0;
  const depth = highBitdepth ? (profile === 2 && twelveBit ? 12 : 10) : 8;
  return `av01.${profile}.${String(level).padStart(2, "0")}${tier}.${String(depth).padStart(2, "0")}`;
}

export function videoCodecString(config: VideoConfig): string {
  if (config.codec === "h264") return avcCodec(config.record);
  if (config.codec === "hevc") return hevcCodec(config.record);
  return av1Codec(config.record);
}

/** mp4a.40.<audio object type> (2 = AAC-LC, 5 = HE-AAC). */
export function audioCodecString(config: AudioConfig): string {
  const first = config.asc[0] ?? 0x10;
  let objectType = first >> 3;
  if (objectType === 31 && config.asc.length > 1) objectType = 32 + (((first & 0x07) << 3) | (config.asc[1]! >> 5));
  return `mp4a.40.${objectType || 2}`;
}
