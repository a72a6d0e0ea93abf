/**
 * The NetConnection/NetStream command messages a publishing server sends, and reading the ones it gets:
 * AMF0 commands (type 20) and their AMF3-wrapped form (type 17: one format byte, then AMF0 all the same,
 * as librtmp and FFmpeg send them).
 */

import { type Amf0Object, type Amf0Value, decodeAmf0, encodeAmf0 } from "./amf0.ts";
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

/** Values of an AMF0 command or data message (AMF3-wrapped ones unwrapped). Throws Amf0Error. */
export function decodeMessageValues(message: RtmpMessage): Amf0Value[] {
  const amf3 = message.type === MessageType.CommandAmf3 || message.type === MessageType.DataAmf3;
  if (amf3 && message.payload[0] !== 0) throw new RtmpProtocolError("AMF3-encoded commands are not supported");
  return decodeAmf0(amf3 ? message.payload.subarray(1) : message.payload);
}

export function readCommand(message: RtmpMessage): Command {
  const [name, transactionId, object = null, ...args] = decodeMessageValues(message);
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
