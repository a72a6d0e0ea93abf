/**
 * OBS 29.1+ publishing HEVC or AV1 over Enhanced RTMP, for the browser tests (Debian's FFmpeg 5.1 cannot):
 * `bun tests/e2e/support/enhanced-publish.ts <rtmp port> <stream key> <hevc|av1> <seconds>`. FFmpeg encodes
 * the test picture (640×360, a keyframe a second); the frames are sent in real time by their timestamps,
 * then SequenceEnd, and the connection is closed. Prints `published <n> frames` when done.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageType } from "../../../src/modules/ingest/rtmp/chunks.ts";
import { makeFragmentedMp4 } from "../../support/media/media-tools.ts";
import { readFragmentedMp4 } from "../../support/media/mp4-file.ts";
import { enhancedFrameTag, enhancedTag, RawRtmpClient } from "../../support/rtmp.ts";

const [port, key, codec, seconds] = process.argv.slice(2);
if (!port || !key || (codec !== "hevc" && codec !== "av1") || !seconds) {
  console.error("usage: enhanced-publish.ts <rtmp port> <stream key> <hevc|av1> <seconds>");
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "dreadcast-enhanced-"));
try {
  const { config, frames } = readFragmentedMp4(makeFragmentedMp4(join(dir, "source.mp4"), codec, { seconds: Number(seconds), size: "640x360" }));
  const fourCc = codec === "hevc" ? "hvc1" : "av01";
  const client = await RawRtmpClient.open(Number(port));
  await client.publish(key);
  if (!client.statusCodes().includes("NetStream.Publish.Start")) throw new Error(`the publish was refused: ${client.statusCodes().join(", ")}`);
  const send = (timestamp: number, payload: Uint8Array) => client.send({ chunkStreamId: 6, type: MessageType.Video, timestamp, streamId: 1, payload });
  send(0, enhancedTag(1, 0, fourCc, config.record));
  const started = performance.now();
  for (const frame of frames) {
    const wait = started + frame.dts - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    if (client.closed) throw new Error("the server closed the connection");
    send(frame.dts, enhancedFrameTag(codec, frame));
  }
  send(frames.at(-1)!.dts, enhancedTag(1, 2, fourCc, new Uint8Array()));
  client.socket.end();
  console.log(`published ${frames.length} frames`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
