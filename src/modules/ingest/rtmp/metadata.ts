/**
 * What `@setDataFrame onMetaData` says of a stream, kept only where it is a plausible number or a short
 * string: the values come from the publisher and end up on the admin's screen.
 */

import type { StreamMetadata } from "../../../media/stream.ts";
import { type Amf0Value, asObject } from "./amf0.ts";

export function readMetadata(value: Amf0Value): StreamMetadata {
  const object = asObject(value) ?? {};
  const num = (key: string, max: number): number | undefined => {
    const v = object[key];
    return typeof v === "number" && Number.isFinite(v) && v > 0 && v <= max ? v : undefined;
  };
  const stereo = object.stereo;
  const meta: StreamMetadata = {
    width: num("width", 16384),
    height: num("height", 16384),
    framerate: num("framerate", 1000) ?? num("videoframerate", 1000),
    videoBitrateKbps: num("videodatarate", 1_000_000),
    audioBitrateKbps: num("audiodatarate", 100_000),
    audioSampleRate: num("audiosamplerate", 768_000),
    audioChannels: num("audiochannels", 64) ?? (typeof stereo === "boolean" ? (stereo ? 2 : 1) : undefined),
    encoder: typeof object.encoder === "string" ? object.encoder.slice(0, 200) : undefined,
  };
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined)) as StreamMetadata;
}
