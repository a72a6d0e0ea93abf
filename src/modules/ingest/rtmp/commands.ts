/**
 * The NetConnection/NetStream command messages a publishing server sends, and reading the ones it gets:
 * AMF0 commands (type 20) and their AMF3-wrapped form (type 17: one format byte, then AMF0 all the same,
 * as librtmp and FFmpeg send them).
 */

import { type Amf0Bounds, type Amf0Object, type Amf0Value, DEFAULT_AMF0_BOUNDS, decodeAmf0, encodeAmf0, peekName } from "./amf0.ts";
import { MessageType, RtmpProtocolError, type RtmpMessage } from "./chunks.ts";

/** Chunk streams and the message stream used for what the server sends. */
const COMMAND_CHUNK_STREAM = 3;
const STATUS_CHUNK_STREAM = 5;
export const PUBLISH_STREAM_ID = 1;

export interface Command {
  name: string;
  transactionId: number;
  /** The command object (null for most NetStream commands). */
  object: Amf0Value;
  args: Amf0Value[];
}

/**
 * The commands a publishing server acts on; any other (`_checkbw`, `getStreamLength`, `_result` of its own
 * calls…) needs nothing, so it is dropped by its name without its body ever being decoded.
 */
export const HANDLED_COMMANDS: ReadonlySet<string> = new Set([
  "connect",
  "releaseStream",
  "FCPublish",
  "createStream",
  "publish",
  "FCUnpublish",
  "deleteStream",
  "closeStream",
  "play",
  "play2",
]);

/** Bounds for what is decoded before a publish: a connect object, a key, a few short arguments. */
export const SETUP_AMF0_BOUNDS: Amf0Bounds = { maxValues: 128, maxProperties: 64 };
/** Bounds for onMetaData (OBS sends about 20 properties; encoders with their own extras a few dozen). */
export const METADATA_AMF0_BOUNDS: Amf0Bounds = { maxValues: 512, maxProperties: 256 };

function amf0Body(message: RtmpMessage): Uint8Array {
  const amf3 = message.type === MessageType.CommandAmf3 || message.type === MessageType.DataAmf3;
  if (amf3 && message.payload[0] !== 0) throw new RtmpProtocolError("AMF3-encoded commands are not supported");
  return amf3 ? message.payload.subarray(1) : message.payload;
}

/** A command or data message's name (its first value), read without decoding the rest; null when it has none. */
export function messageName(message: RtmpMessage): string | null {
  return peekName(amf0Body(message));
}

/** Values of an AMF0 command or data message (AMF3-wrapped ones unwrapped). Throws Amf0Error. */
export function decodeMessageValues(message: RtmpMessage, bounds: Amf0Bounds = DEFAULT_AMF0_BOUNDS): Amf0Value[] {
  return decodeAmf0(amf0Body(message), bounds);
}

export function readCommand(message: RtmpMessage, bounds: Amf0Bounds = DEFAULT_AMF0_BOUNDS): Command {
  const [name, transactionId, object = null, ...args] = decodeMessageValues(message, bounds);
  if (typeof name !== "string") throw new RtmpProtocolError("command without a name");
  return { name, transactionId: typeof transactionId === "number" && Number.isFinite(transactionId) ? transactionId : 0, object, args };
}

function command(chunkStreamId: number, streamId: number, values: Amf0Value[]): RtmpMessage {
  return { chunkStreamId, type: MessageType.CommandAmf0, timestamp: 0, streamId, payload: encodeAmf0(values) };
}

export const replies = {
  connectSuccess: (transactionId: number): RtmpMessage =>
    command(COMMAND_CHUNK_STREAM, 0, [
      "_result",
      transactionId,
      { fmsVer: "FMS/3,0,1,123", capabilities: 31 },
      { level: "status", code: "NetConnection.Connect.Success", description: "Connection succeeded.", objectEncoding: 0 },
    ]),
  connectRejected: (transactionId: number, description: string): RtmpMessage =>
    command(COMMAND_CHUNK_STREAM, 0, ["_error", transactionId, null, { level: "error", code: "NetConnection.Connect.Rejected", description }]),
  /** The plain `_result` releaseStream and the like get (FFmpeg and OBS do not wait for it). */
  result: (transactionId: number, value: Amf0Value = undefined): RtmpMessage => command(COMMAND_CHUNK_STREAM, 0, ["_result", transactionId, null, value]),
  onFCPublish: (): RtmpMessage => command(COMMAND_CHUNK_STREAM, 0, ["onFCPublish", 0, null, { code: "NetStream.Publish.Start", description: "FCPublish" }]),
  onFCUnpublish: (): RtmpMessage => command(COMMAND_CHUNK_STREAM, 0, ["onFCUnpublish", 0, null, { code: "NetStream.Unpublish.Success", description: "FCUnpublish" }]),
  onStatus: (level: "status" | "error", code: string, description: string): RtmpMessage =>
    command(STATUS_CHUNK_STREAM, PUBLISH_STREAM_ID, ["onStatus", 0, null, { level, code, description } satisfies Amf0Object]),
};
