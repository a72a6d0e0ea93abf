/**
 * Both halves of the built-in ingest together: FFmpeg publishes RTMP the way OBS does into the RTMP server,
 * whose sessions feed one packager; the LL-HLS it holds is read live (blocking reload) and by ffprobe.
 * HEVC and AV1 come over Enhanced RTMP as OBS 29.1+ sends them, from a publisher driven by hand: Debian's
 * FFmpeg 5.1 cannot publish them (its FLV muxer predates Enhanced RTMP), but it encodes the frames.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Packager } from "../../src/modules/ingest/hls/packager.ts";
import { type RtmpServer, startRtmpServer } from "../../src/modules/ingest/rtmp/server.ts";
import { recordingLogger } from "../support/logger.ts";
import { MessageType } from "../../src/modules/ingest/rtmp/chunks.ts";
import { makeFragmentedMp4, mediaDir, mediaToolsMissing, probeFrames, probeStreams } from "../support/media/media-tools.ts";
import { readFragmentedMp4 } from "../support/media/mp4-file.ts";
import { eventually } from "../support/eventually.ts";
import { enhancedFrameTag, enhancedTag, publish, RawRtmpClient } from "../support/rtmp.ts";

if (mediaToolsMissing) console.log(`SKIPPED: RTMP publishing into the packager (${mediaToolsMissing})`);

let server: RtmpServer | undefined;
let dir = "";
beforeAll(() => {
  if (!mediaToolsMissing) dir = mediaDir();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(mediaToolsMissing !== null)("RTMP into the packager", () => {
  test("a publish is watchable live as LL-HLS, and a reconnect continues it after a discontinuity", async () => {
    const packager = new Packager();
    server = await startRtmpServer({
      port: 0,
      host: "127.0.0.1",
      logger: recordingLogger([]),
      authorize: () => "ok",
      onPublish: () => packager,
    });
    const url = `rtmp://127.0.0.1:${server.port}/live/key`;

    const first = publish(url, { seconds: 3 });
    await eventually(() => packager.ready, 5000);
    expect(packager.isLive).toBe(true);
    const live = await packager.playlist();
    if (live.status !== "ok") throw new Error(live.status);
    const hint = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)-(\d+)\.m4s"/.exec(live.body)!;
    const asked = performance.now();
    const next = await packager.playlist({ msn: Number(hint[1]), part: Number(hint[2]) });
    expect(performance.now() - asked).toBeLessThan(1000); // one part, written as the publisher sends it
    expect(next.status).toBe("ok");
    expect((next as { body: string }).body).toContain(`URI="part-${hint[1]}-${hint[2]}.m4s"`);
    // The program date-time is the wall clock at ingest.
    const dates = [...(next as { body: string }).body.matchAll(/PROGRAM-DATE-TIME:(\S+)/g)].map((m) => Date.parse(m[1]!));
    expect(Math.abs(dates[dates.length - 1]! - Date.now())).toBeLessThan(3000);
    expect((await first.done).code).toBe(0);
    await eventually(() => !packager.isLive, 3000);

    const second = publish(url, { seconds: 2 });
    expect((await second.done).code).toBe(0);
    await eventually(() => !packager.isLive, 3000);
    const after = await packager.playlist();
    if (after.status !== "ok") throw new Error(after.status);
    expect(after.body.split("\n").filter((l) => l === "#EXT-X-DISCONTINUITY")).toHaveLength(1);
    expect(after.body).toContain('#EXT-X-MAP:URI="init-2.mp4"');

    const segments = after.body.split("\n").filter((l) => l.startsWith("seg-"));
    const firstSession = segments.filter((s) => packager.getSegment(s) && after.body.indexOf(s) < after.body.indexOf("init-2.mp4"));
    const path = join(dir, "rtmp.mp4");
    writeFileSync(path, Buffer.concat([packager.getInit("init-1.mp4")!, ...firstSession.map((s) => packager.getSegment(s)!)]));
    const { frames, errors } = probeFrames(path);
    expect(errors).toBe("");
    const video = frames.filter((f) => f.media_type === "video").length;
    expect(video).toBeGreaterThanOrEqual(85);
    expect(video).toBeLessThanOrEqual(95);
    expect(frames.some((f) => f.media_type === "audio")).toBe(true);
    expect(packager.figures()).toMatchObject({ live: false, video: { width: 640, height: 360, fps: 30, keyframeIntervalS: 1 } });
  }, 30_000);
});

describe.skipIf(mediaToolsMissing !== null)("Enhanced RTMP into the packager", () => {
  for (const [codec, fourCc, codecs] of [
    ["hevc", "hvc1", /CODECS="hvc1\.1\.6\.L\d+\.[0-9A-F]+,mp4a\.40\.2"/],
    ["av1", "av01", /CODECS="av01\.0\.\d\dM\.08,mp4a\.40\.2"/],
  ] as const) {
    test(`${codec} published as '${fourCc}' over RTMP comes out as ${fourCc} LL-HLS that decodes, every frame`, async () => {
      const { config, frames } = readFragmentedMp4(makeFragmentedMp4(join(dir, `${codec}-source.mp4`), codec));
      const packager = new Packager();
      const published: string[] = [];
      server = await startRtmpServer({
        port: 0,
        host: "127.0.0.1",
        logger: recordingLogger([]),
        authorize: () => "ok",
        onPublish: (session) => {
          published.push(session.app);
          return packager;
        },
      });
      const client = await RawRtmpClient.open(server.port);
      await client.publish("enhanced");
      expect(client.statusCodes()).toEqual(["NetStream.Publish.Start"]);
      const video = (timestamp: number, payload: Uint8Array) => client.send({ chunkStreamId: 6, type: MessageType.Video, timestamp, streamId: 1, payload });
      video(0, enhancedTag(1, 0, fourCc, config.record));
      for (const frame of frames) video(frame.dts, enhancedFrameTag(codec, frame));
      video(frames.at(-1)!.dts, enhancedTag(1, 2, fourCc, new Uint8Array()));
      await eventually(() => packager.ready, 5000);
      client.socket.end();
      await eventually(() => !packager.isLive, 5000);
      expect(published).toEqual(["live"]);

      const done = await packager.playlist();
      if (done.status !== "ok") throw new Error(done.status);
      const segments = done.body.split("\n").filter((l) => l.startsWith("seg-"));
      expect(segments.length).toBeGreaterThanOrEqual(2);
      const path = join(dir, `${codec}-packaged.mp4`);
      writeFileSync(path, Buffer.concat([packager.getInit("init-1.mp4")!, ...segments.map((s) => packager.getSegment(s)!)]));
      // Published without sound: a silent AAC track beside it, which the panel does not count as the publisher's.
      expect(probeStreams(path)).toMatchObject([
        { codec_name: codec, codec_tag_string: fourCc, width: 320, height: 180, nb_read_frames: String(frames.length) },
        { codec_type: "audio", codec_name: "aac" },
      ]);
      expect(probeFrames(path).errors).toBe("");
      expect(packager.multivariantPlaylist("media.m3u8")).toMatch(codecs);
      expect(packager.figures()).toMatchObject({ video: { width: 320, height: 180 }, audio: null });
    }, 30_000);
  }
});
