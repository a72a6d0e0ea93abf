/**
 * The coded picture size, read from a decoder configuration record's parameter sets: the H.264 or HEVC
 * sequence parameter set (exp-Golomb fields, cropping applied) or the AV1 sequence header OBU. Bounded
 * reads: a malformed set is an SpsError, which the caller turns into "size unknown" (0 × 0).
 */

export class SpsError extends Error {
  override name = "SpsError";
}

export interface CodedSize {
  width: number;
  height: number;
}

class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}
  u(n: number): number {
    let value = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new SpsError("parameter set ends early");
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }
  skip(n: number): void {
    if (this.bit + n > this.bytes.length * 8) throw new SpsError("parameter set ends early");
    this.bit += n;
  }
  /** Unsigned exp-Golomb. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      if (++zeros > 31) throw new SpsError("exp-Golomb code longer than 32 bits");
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** Drops the emulation-prevention bytes (00 00 03 → 00 00) of a NAL unit's payload. */
export function unescapeNal(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let length = 0;
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** Width and height of an H.264 SPS NAL unit (with its 1-byte NAL header). */
export function parseH264Sps(nal: Uint8Array): CodedSize {
  const r = new BitReader(unescapeNal(nal.subarray(1)));
  const profile = r.u(8);
  r.skip(16); // constraint flags, level
  r.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let separateColourPlanes = false;
  if (HIGH_PROFILES.has(profile)) {
    chromaFormat = r.ue();
    if (chromaFormat > 3) throw new SpsError("chroma_format_idc out of range");
    if (chromaFormat === 3) separateColourPlanes = r.u(1) === 1;
    r.ue(); // bit depth luma
    r.ue(); // bit depth chroma
    r.skip(1); // qpprime_y_zero_transform_bypass
    if (r.u(1) === 1) {
      for (let i = 0; i < (chromaFormat === 3 ? 12 : 8); i++) {
        if (r.u(1) === 1) skipScalingList(r, i < 6 ? 16 : 64);
      }
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) r.ue();
  else if (pocType === 1) {
    r.skip(1);
    r.se();
    r.se();
    const cycle = r.ue();
    if (cycle > 255) throw new SpsError("num_ref_frames_in_pic_order_cnt_cycle out of range");
    for (let i = 0; i < cycle; i++) r.se();
  } else if (pocType !== 2) throw new SpsError("pic_order_cnt_type out of range");
  r.ue(); // max_num_ref_frames
  r.skip(1); // gaps_in_frame_num_value_allowed
  const widthInMbs = r.ue() + 1;
  const heightInMapUnits = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  if (!frameMbsOnly) r.skip(1); // mb_adaptive_frame_field
  r.skip(1); // direct_8x8_inference
  let [left, right, top, bottom] = [0, 0, 0, 0];
  if (r.u(1) === 1) [left, right, top, bottom] = [r.ue(), r.ue(), r.ue(), r.ue()];
  const chromaArrayType = separateColourPlanes ? 0 : chromaFormat;
  const subWidth = chromaArrayType === 1 || chromaArrayType === 2 ? 2 : 1;
  const subHeight = chromaArrayType === 1 ? 2 : 1;
  const cropX = chromaArrayType === 0 ? 1 : subWidth;
  const cropY = (chromaArrayType === 0 ? 1 : subHeight) * (2 - frameMbsOnly);
  const width = widthInMbs * 16 - cropX * (left + right);
  const height = (2 - frameMbsOnly) * heightInMapUnits * 16 - cropY * (top + bottom);
  if (width <= 0 || height <= 0) throw new SpsError("cropping leaves no picture");
  return { width, height };
}

function skipScalingList(r: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + r.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** Width and height of an HEVC SPS NAL unit (with its 2-byte NAL header). */
export function parseHevcSps(nal: Uint8Array): CodedSize {
  const r = new BitReader(unescapeNal(nal.subarray(2)));
  r.skip(4); // sps_video_parameter_set_id
  const subLayers = r.u(3);
  r.skip(1); // temporal_id_nesting
  r.skip(96); // general profile_tier_level
  const profilePresent: boolean[] = [];
  const levelPresent: boolean[] = [];
  for (let i = 0; i < subLayers; i++) {
    profilePresent.push(r.u(1) === 1);
    levelPresent.push(r.u(1) === 1);
  }
  if (subLayers > 0) for (let i = subLayers; i < 8; i++) r.skip(2);
  for (let i = 0; i < subLayers; i++) {
    if (profilePresent[i]) r.skip(88);
    if (levelPresent[i]) r.skip(8);
  }
  r.ue(); // sps_seq_parameter_set_id
  const chromaFormat = r.ue();
  if (chromaFormat > 3) throw new SpsError("chroma_format_idc out of range");
  let separateColourPlanes = false;
  if (chromaFormat === 3) separateColourPlanes = r.u(1) === 1;
  let width = r.ue();
  let height = r.ue();
  if (r.u(1) === 1) {
    const chromaArrayType = separateColourPlanes ? 0 : chromaFormat;
    const subWidth = chromaArrayType === 1 || chromaArrayType === 2 ? 2 : 1;
    const subHeight = chromaArrayType === 1 ? 2 : 1;
    width -= subWidth * (r.ue() + r.ue());
    height -= subHeight * (r.ue() + r.ue());
  }
  if (width <= 0 || height <= 0) throw new SpsError("cropping leaves no picture");
  return { width, height };
}

/** Width and height of an AV1 sequence header OBU (with its OBU header). */
export function parseAv1SequenceHeader(obu: Uint8Array): CodedSize {
  const r = new BitReader(obu);
  r.skip(1); // forbidden
  if (r.u(4) !== 1) throw new SpsError("not a sequence header OBU");
  const hasExtension = r.u(1) === 1;
  const hasSize = r.u(1) === 1;
  r.skip(1);
  if (hasExtension) r.skip(8);
  if (hasSize) {
    // obu_size, leb128: each byte a continuation bit and 7 bits of value
    let more = true;
    for (let i = 0; i < 8 && more; i++) {
      more = r.u(1) === 1;
      r.skip(7);
    }
  }
  r.skip(3); // seq_profile
  r.skip(1); // still_picture
  if (r.u(1) === 1) {
    r.skip(5); // reduced_still_picture_header: seq_level_idx[0]
  } else {
    let decoderModelInfo = false;
    let bufferDelayLength = 0;
    if (r.u(1) === 1) {
      r.skip(64); // num_units_in_display_tick, time_scale
      if (r.u(1) === 1) uvlc(r); // equal_picture_interval → num_ticks_per_picture_minus_1
      decoderModelInfo = r.u(1) === 1;
      if (decoderModelInfo) {
        bufferDelayLength = r.u(5) + 1;
        r.skip(32 + 5 + 5);
      }
    }
    const initialDisplayDelay = r.u(1) === 1;
    const operatingPoints = r.u(5) + 1;
    for (let i = 0; i < operatingPoints; i++) {
      r.skip(12);
      if (r.u(5) > 7) r.skip(1);
      if (decoderModelInfo && r.u(1) === 1) r.skip(bufferDelayLength * 2 + 1);
      if (initialDisplayDelay && r.u(1) === 1) r.skip(4);
    }
  }
  const widthBits = r.u(4) + 1;
  const heightBits = r.u(4) + 1;
  return { width: r.u(widthBits) + 1, height: r.u(heightBits) + 1 };
}

function uvlc(r: BitReader): void {
  let zeros = 0;
  while (r.u(1) === 0) if (++zeros >= 32) throw new SpsError("uvlc too long");
  r.skip(zeros);
}
