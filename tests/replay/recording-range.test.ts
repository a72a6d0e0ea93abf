/**
 * The panel's MP4 download under the Range header, on the real route: one range of bytes is a 206 of
 * exactly it; another unit, a malformed header or several ranges get the whole file (200); a range past
 * the end is a 416 naming the size.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { FILES_MISSING_MESSAGE } from "../../src/modules/replay/download.ts";
import { ingestWithKey, loginAsAdmin, STAND_IN_PAGE, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { cookieOf } from "../support/ws.ts";
import { publish } from "../support/rtmp.ts";
import { mediaToolsMissing } from "../support/media/media-tools.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the download's ranges (${mediaToolsMissing})`);

let app: TestApp;
let admin: TestClient;
let path = "";
let whole = new Uint8Array();

beforeAll(async () => {
  if (mediaToolsMissing) return;
  app = await startTestApp({}, { page: STAND_IN_PAGE });
  admin = await loginAsAdmin(app);
  expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
  const { rtmpUrl, streamKey } = await ingestWithKey(admin);
  expect((await publish(`${rtmpUrl}/${streamKey}`, { seconds: 3 }).done).code).toBe(0);
  const rec = await eventually(
    async () => {
      const r = (await admin.get("/api/admin/recordings")).body.recordings[0];
      return r?.state === "complete" ? r : null;
    },
    10_000,
    "the recording closed",
  );
  path = `/api/admin/recordings/${rec.id}.mp4`;
  whole = new Uint8Array(await (await download(null)).arrayBuffer());
}, 30_000);
afterAll(() => app?.close());

const download = (range: string | null) => fetch(app.url + path, { headers: { cookie: cookieOf(admin), ...(range === null ? {} : { range }) } });

describe.skipIf(mediaToolsMissing !== null)("the recording's download and the Range header", () => {
  test("one range is a 206 of those bytes; any other header the whole file; past the end a 416", async () => {
    const size = whole.length;
    expect(size).toBeGreaterThan(10_000);
    const part = (start: number, end: number) => ({ status: 206, contentRange: `bytes ${start}-${end}/${size}`, bytes: whole.slice(start, end + 1) });
    const all = { status: 200, contentRange: null, bytes: whole };
    const unsatisfiable = { status: 416, contentRange: `bytes */${size}`, bytes: new Uint8Array() };
    const cases: [string | null, { status: number; contentRange: string | null; bytes: Uint8Array }][] = [
      [null, all],
      ["bytes=5-9", part(5, 9)],
      ["bytes=0-0", part(0, 0)],
      ["Bytes=100-199", part(100, 199)],
      [`bytes=${size - 10}-`, part(size - 10, size - 1)],
      ["bytes=-7", part(size - 7, size - 1)],
      [`bytes=10-${size * 2}`, part(10, size - 1)],
      ["xbytes=5-9", all],
      ["bytes=5-9 junk", all],
      ["bytes=0-0,5-10", all],
      ["bytes=9-5", all],
      ["bytes=five-nine", all],
      ["bytes=5", all],
      [`bytes=${size}-`, unsatisfiable],
      ["bytes=999999999-", unsatisfiable],
      ["bytes=-0", unsatisfiable],
    ];
    for (const [range, expected] of cases) {
      const res = await download(range);
      const body = Buffer.from(await res.arrayBuffer());
      const answer = { range, status: res.status, contentRange: res.headers.get("content-range"), length: body.length, same: body.equals(expected.bytes) };
      expect(answer).toEqual({ range, status: expected.status, contentRange: expected.contentRange, length: expected.bytes.length, same: true });
      if (res.status !== 416) expect(res.headers.get("content-type")).toBe("video/mp4");
    }
  }, 30_000);
});

describe.skipIf(mediaToolsMissing !== null)("a recording whose files are gone", () => {
  test("is a 404 saying so, not a 500 (a data directory restored without its recordings)", async () => {
    rmSync(join(app.ctx.config.dataDir, "recordings"), { recursive: true, force: true });
    const res = await download(null);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: FILES_MISSING_MESSAGE });
  });
});
