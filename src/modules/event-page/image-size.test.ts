import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { imageSize } from "./image-size.ts";

/** Images ffmpeg made (tests/fixtures/images), 1200×630 as ffprobe reads them: each kind an upload may be, WebP in its three forms. */
const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "../../../tests/fixtures/images", name)));

describe("an image's size from its header", () => {
  test("JPEG, GIF and PNG", () => {
    expect(imageSize(fixture("poster.jpg"))).toEqual({ width: 1200, height: 630 });
    expect(imageSize(fixture("poster.gif"))).toEqual({ width: 1200, height: 630 });
    expect(imageSize(readFileSync(join(import.meta.dir, "../../../web/public/assets/default-thumbnail.jpg")))).toEqual({ width: 1280, height: 720 });
  });

  test("WebP: lossy (VP8), lossless (VP8L) and extended (VP8X, with alpha)", () => {
    expect(imageSize(fixture("poster.webp"))).toEqual({ width: 1200, height: 630 });
    expect(imageSize(fixture("poster-lossless.webp"))).toEqual({ width: 1200, height: 630 });
    expect(imageSize(fixture("poster-alpha.webp"))).toEqual({ width: 1200, height: 630 });
  });

  test("a header cut short, or bytes that are no image, give no size rather than a wrong one", () => {
    for (const name of ["poster.jpg", "poster.gif", "poster.webp", "poster-lossless.webp", "poster-alpha.webp"]) {
      expect(imageSize(fixture(name).slice(0, 8))).toBeNull();
    }
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02, 0x00]))).toBeNull();
    expect(imageSize(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(imageSize(new Uint8Array())).toBeNull();
  });
});
