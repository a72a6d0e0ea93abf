import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CachedRecordingFiles } from "./file-cache.ts";
import { DiskRecordingFiles } from "./files.ts";

let dir = "";
let disk: DiskRecordingFiles;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "dreadcast-file-cache-"));
  disk = new DiskRecordingFiles(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const HEADERS = { "content-type": "video/iso.segment", "cache-control": "private, max-age=3600" };

/** Asks for `key` as the replay route does; the body and the type it was answered with. */
async function ask(files: CachedRecordingFiles, key: string) {
  const response = (await files.response(key, HEADERS))!;
  return { bytes: new Uint8Array(await response.arrayBuffer()), type: response.headers.get("content-type"), caching: response.headers.get("cache-control") };
}

/** Lets the read a second ask started finish. */
const settled = () => Bun.sleep(20);

test("a file is kept from its second ask and then sent from memory, the same bytes and headers", async () => {
  const files = new CachedRecordingFiles(disk, 1024 * 1024);
  await files.write("r1/seg-1.m4s", bytesOf(1000, 7));
  const first = await ask(files, "r1/seg-1.m4s");
  await settled();
  expect(files.figures()).toMatchObject({ hits: 0, misses: 1, files: 0 });
  const second = await ask(files, "r1/seg-1.m4s");
  await settled();
  expect(files.figures()).toMatchObject({ hits: 0, misses: 2, files: 1, bytes: 1000 });
  const third = await ask(files, "r1/seg-1.m4s");
  expect(files.figures()).toMatchObject({ hits: 1, misses: 2 });
  for (const answer of [first, second, third]) expect(answer).toEqual({ bytes: bytesOf(1000, 7), type: "video/iso.segment", caching: "private, max-age=3600" });
  expect(await files.size("r1/seg-1.m4s")).toBe(1000);
});

test("the least recently asked files go first at the bound; a file over an eighth of it is never kept", async () => {
  const files = new CachedRecordingFiles(disk, 24_000);
  for (const n of [1, 2, 3]) await files.write(`r1/seg-${n}.m4s`, bytesOf(1000 * n, n));
  await files.write("r1/seg-9.m4s", bytesOf(3001, 9));
  const keep = async (key: string) => {
    await ask(files, key);
    await ask(files, key);
    await settled();
  };
  await keep("r1/seg-1.m4s");
  await keep("r1/seg-2.m4s");
  await keep("r1/seg-9.m4s");
  expect(files.figures()).toMatchObject({ files: 2, bytes: 3000 });
  // seg-1 asked again: seg-2 is now the least recently asked, and goes first when the bound falls below both.
  await ask(files, "r1/seg-1.m4s");
  files.resize(3000);
  expect(files.figures()).toMatchObject({ files: 2, bytes: 3000 });
  files.resize(2500);
  expect(files.figures()).toMatchObject({ files: 1, bytes: 1000 });
  const { hits } = files.figures();
  expect((await ask(files, "r1/seg-1.m4s")).bytes).toEqual(bytesOf(1000, 1));
  expect(files.figures().hits).toBe(hits + 1);
  files.resize(0);
  expect(files.figures()).toMatchObject({ files: 0, bytes: 0 });
  await keep("r1/seg-3.m4s");
  expect(files.figures()).toMatchObject({ files: 0, bytes: 0 });
});

test("a recording removed leaves the memory with its files; one written anew is read anew", async () => {
  const files = new CachedRecordingFiles(disk, 1024 * 1024);
  await files.write("r1/seg-1.m4s", bytesOf(500, 1));
  await files.write("r2/seg-1.m4s", bytesOf(500, 2));
  for (const key of ["r1/seg-1.m4s", "r1/seg-1.m4s", "r2/seg-1.m4s", "r2/seg-1.m4s"]) await ask(files, key);
  await settled();
  expect(files.figures()).toMatchObject({ files: 2 });
  await files.removeDir("r1");
  expect(files.figures()).toMatchObject({ files: 1, bytes: 500 });
  // Gone from disk and from memory: the disk's answer (the server turns a missing file into a 404).
  expect(
    await files
      .response("r1/seg-1.m4s", HEADERS)
      .then((r) => r!.arrayBuffer())
      .catch(() => "missing"),
  ).toBe("missing");

  await files.write("r2/seg-1.m4s", bytesOf(600, 3));
  expect(files.figures()).toMatchObject({ files: 0 });
  expect((await ask(files, "r2/seg-1.m4s")).bytes).toEqual(bytesOf(600, 3));
});

test("a read that fails, or that a removal overtakes, keeps nothing", async () => {
  const files = new CachedRecordingFiles(disk, 1024 * 1024);
  await files.write("r1/seg-1.m4s", bytesOf(500, 1));
  await ask(files, "r1/seg-1.m4s");
  rmSync(join(dir, "r1/seg-1.m4s"));
  await files.response("r1/seg-1.m4s", HEADERS);
  await settled();
  expect(files.figures()).toMatchObject({ files: 0 });

  await files.write("r2/seg-1.m4s", bytesOf(500, 2));
  await ask(files, "r2/seg-1.m4s");
  await files.response("r2/seg-1.m4s", HEADERS);
  await files.removeDir("r2");
  await settled();
  expect(files.figures()).toMatchObject({ files: 0 });
});
