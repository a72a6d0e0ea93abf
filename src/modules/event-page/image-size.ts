/** An image's pixel size as its header states it, for `og:image:width` and `og:image:height`. */
export interface ImageSize {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;

/** JPEG: the first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC) holds height, then width. */
function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) — each keeps its size in its own way. */
function webpSize(b: Uint8Array): ImageSize | null {
  const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  if (chunk === "VP8 " && b.length >= 30) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === "VP8L" && b.length >= 25) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** The size of a JPEG, PNG, GIF or WebP (the kinds an upload may be), or null when its header does not say. */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  let size: ImageSize | null = null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8) size = jpegSize(bytes);
  else if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) size = { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  else if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49) size = { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  else if (bytes.length >= 16 && bytes[0] === 0x52 && bytes[8] === 0x57) size = webpSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
