/**
 * RTMP's chunk stream: messages cut into chunks of at most the peer's chunk size, interleaved by chunk
 * stream id, each chunk headed by a basic header (1–3 bytes) and a message header of type 0/1/2/3
 * (11/7/3/0 bytes, plus a 4-byte extended timestamp — repeated on type-3 chunks — when the 24-bit field
 * reads 0xFFFFFF). The reader takes bytes as they arrive, split anywhere, copies chunk bodies straight into
 * their message, and bounds what a peer can make it hold: message size, chunk streams in flight, bytes
 * announced but not yet received.
 */
import { concat } from "../../../media/bytes.ts";

export class RtmpProtocolError extends Error {
  override name = "RtmpProtocolError";
}

/** Message type ids (RTMP 1.0 §5.4, §7.1). */
export const MessageType = {
  SetChunkSize: 1,
  Abort: 2,
  Acknowledgement: 3,
  UserControl: 4,
  WindowAckSize: 5,
  SetPeerBandwidth: 6,
  Audio: 8,
  Video: 9,
  DataAmf3: 15,
  SharedObjectAmf3: 16,
  CommandAmf3: 17,
  DataAmf0: 18,
  SharedObjectAmf0: 19,
  CommandAmf0: 20,
  Aggregate: 22,
} as const;

export interface RtmpMessage {
  chunkStreamId: number;
  type: number;
  /** Milliseconds, 32 bits. */
  timestamp: number;
  streamId: number;
  payload: Uint8Array;
}

export interface ChunkReaderLimits {
  /** Largest message accepted (its declared length), bytes. */
  maxMessageBytes: number;
  /** Largest message of any type but audio and video (commands, metadata, control), bytes; default `maxMessageBytes`. */
  maxOtherMessageBytes?: number;
  /** Chunk streams with a message partly received at once. */
  maxChunkStreams: number;
  /** Bytes declared by all partly received messages together. */
  maxInFlightBytes: number;
}

export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
export const DEFAULT_CHUNK_SIZE = 128;

interface ChunkStreamState {
  timestamp: number;
  /** The last header's timestamp field (absolute for type 0, else the delta): what a new type-3 message adds. */
  timestampField: number;
  extended: boolean;
  length: number;
  type: number;
  streamId: number;
  /** The message being received on this chunk stream, if any. */
  payload: Uint8Array | null;
  received: number;
}

const MAX_HEADER_BYTES = 3 + 11 + 4;

export class ChunkReader {
  private chunkSize = DEFAULT_CHUNK_SIZE;
  private readonly streams = new Map<number, ChunkStreamState>();
  private inFlightBytes = 0;
  /** Bytes of a chunk header that arrived split across reads (at most MAX_HEADER_BYTES). */
  private headerBytes = new Uint8Array(0);
  /** The chunk whose body is being copied, and how much of it is still to come. */
  private current: ChunkStreamState | null = null;
  private currentId = 0;
  private bodyRemaining = 0;

  constructor(private limits: ChunkReaderLimits) {}

  /** Limits change once a publish is accepted (larger messages are allowed then). */
  setLimits(limits: ChunkReaderLimits): void {
    this.limits = limits;
  }

  /** Feeds received bytes; returns the messages they complete, in order. Throws RtmpProtocolError. */
  push(data: Uint8Array): RtmpMessage[] {
    const messages: RtmpMessage[] = [];
    let offset = 0;
    while (offset < data.length) {
      if (this.current) {
        offset = this.copyBody(data, offset, messages);
        continue;
      }
      let input: Uint8Array;
      let fromHeaderBytes = 0;
      if (this.headerBytes.length > 0) {
        const take = Math.min(MAX_HEADER_BYTES, data.length - offset);
        input = new Uint8Array(this.headerBytes.length + take);
        input.set(this.headerBytes);
        input.set(data.subarray(offset, offset + take), this.headerBytes.length);
        fromHeaderBytes = this.headerBytes.length;
      } else {
        input = data.subarray(offset);
      }
      const used = this.readHeader(input, messages);
      if (used === 0) {
        // Incomplete header: keep the bytes (fewer than MAX_HEADER_BYTES) for the next read.
        this.headerBytes = input.slice(0, Math.min(input.length, MAX_HEADER_BYTES));
        return messages;
      }
      offset += used - fromHeaderBytes;
      this.headerBytes = new Uint8Array(0);
    }
    return messages;
  }

  /** Parses one chunk header at the start of `input`; returns the bytes used, 0 when incomplete. */
  private readHeader(input: Uint8Array, messages: RtmpMessage[]): number {
    if (input.length < 1) return 0;
    const first = input[0]!;
    const format = first >> 6;
    let id = first & 0x3f;
    let pos = 1;
    if (id === 0) {
      if (input.length < 2) return 0;
      id = 64 + input[1]!;
      pos = 2;
    } else if (id === 1) {
      if (input.length < 3) return 0;
      id = 64 + input[1]! + input[2]! * 256;
      pos = 3;
    }
    const headerLength = [11, 7, 3, 0][format]!;
    if (input.length < pos + headerLength) return 0;
    let state = this.streams.get(id);
    if (!state && format !== 0) throw new RtmpProtocolError(`chunk stream ${id} starts without a full (type 0) header`);
    const extended = format <= 2 ? input[pos] === 0xff && input[pos + 1] === 0xff && input[pos + 2] === 0xff : state!.extended;
    if (input.length < pos + headerLength + (extended ? 4 : 0)) return 0;

    if (!state) {
      if (this.streams.size >= this.limits.maxChunkStreams) throw new RtmpProtocolError("too many chunk streams");
      state = { timestamp: 0, timestampField: 0, extended: false, length: 0, type: 0, streamId: 0, payload: null, received: 0 };
      this.streams.set(id, state);
    }
    const continuing = state.payload !== null;
    if (continuing && format !== 3) {
      throw new RtmpProtocolError(`chunk stream ${id}: a new message header before the previous message ended`);
    }

    let field = state.timestampField;
    if (format <= 2) field = (input[pos]! << 16) | (input[pos + 1]! << 8) | input[pos + 2]!;
    if (format <= 1) {
      state.length = (input[pos + 3]! << 16) | (input[pos + 4]! << 8) | input[pos + 5]!;
      state.type = input[pos + 6]!;
    }
    if (format === 0) {
      state.streamId = (input[pos + 7]! | (input[pos + 8]! << 8) | (input[pos + 9]! << 16) | (input[pos + 10]! << 24)) >>> 0;
    }
    pos += headerLength;
    if (extended) {
      field = readU32(input, pos);
      pos += 4;
    }

    if (!continuing) {
      state.timestampField = field;
      state.extended = extended;
      state.timestamp = format === 0 ? field : (state.timestamp + field) >>> 0;
      const media = state.type === MessageType.Audio || state.type === MessageType.Video;
      const max = media ? this.limits.maxMessageBytes : Math.min(this.limits.maxMessageBytes, this.limits.maxOtherMessageBytes ?? Infinity);
      if (state.length > max) {
        throw new RtmpProtocolError(`${media ? "" : `type ${state.type} `}message of ${state.length} bytes exceeds the limit of ${max}`);
      }
      if (this.inFlightBytes + state.length > this.limits.maxInFlightBytes) {
        throw new RtmpProtocolError("too many bytes announced in partly received messages");
      }
      if (this.inFlightCount() >= this.limits.maxChunkStreams) throw new RtmpProtocolError("too many chunk streams in flight");
      state.payload = new Uint8Array(state.length);
      state.received = 0;
      this.inFlightBytes += state.length;
    }
    this.current = state;
    this.currentId = id;
    this.bodyRemaining = Math.min(this.chunkSize, state.length - state.received);
    if (this.bodyRemaining === 0) this.finishChunk(messages);
    return pos;
  }

  private inFlightCount(): number {
    let count = 0;
    for (const state of this.streams.values()) if (state.payload) count++;
    return count;
  }

  private copyBody(data: Uint8Array, offset: number, messages: RtmpMessage[]): number {
    const state = this.current!;
    const take = Math.min(this.bodyRemaining, data.length - offset);
    state.payload!.set(data.subarray(offset, offset + take), state.received);
    state.received += take;
    this.bodyRemaining -= take;
    if (this.bodyRemaining === 0) this.finishChunk(messages);
    return offset + take;
  }

  private finishChunk(messages: RtmpMessage[]): void {
    const state = this.current!;
    this.current = null;
    if (state.received < state.length) return;
    const payload = state.payload!;
    state.payload = null;
    this.inFlightBytes -= state.length;
    const message: RtmpMessage = { chunkStreamId: this.currentId, type: state.type, timestamp: state.timestamp, streamId: state.streamId, payload };
    this.applyControl(message);
    messages.push(message);
  }

  /** Set Chunk Size and Abort change how the following chunks are read, so the reader applies them itself. */
  private applyControl(message: RtmpMessage): void {
    if (message.type === MessageType.SetChunkSize) {
      if (message.payload.length < 4) throw new RtmpProtocolError("Set Chunk Size is shorter than 4 bytes");
      const size = readU32(message.payload, 0) & 0x7fffffff;
      if (size < 1 || size > MAX_CHUNK_SIZE) throw new RtmpProtocolError(`chunk size ${size} is outside 1..${MAX_CHUNK_SIZE}`);
      this.chunkSize = size;
    } else if (message.type === MessageType.Abort) {
      if (message.payload.length < 4) throw new RtmpProtocolError("Abort is shorter than 4 bytes");
      const state = this.streams.get(readU32(message.payload, 0));
      if (state?.payload) {
        this.inFlightBytes -= state.length;
        state.payload = null;
        state.received = 0;
      }
    }
  }
}

export function readU32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

function u32(value: number): Uint8Array {
  return Uint8Array.of((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}

/** Cuts outgoing messages into chunks: a type-0 header on the first chunk, type 3 on the rest. */
export class ChunkWriter {
  private chunkSize = DEFAULT_CHUNK_SIZE;

  setChunkSize(size: number): void {
    this.chunkSize = size;
  }

  encode(message: RtmpMessage): Uint8Array {
    const { chunkStreamId: id, payload } = message;
    if (id < 2 || id > 65599) throw new RangeError(`chunk stream id ${id} is outside 2..65599`);
    const timestamp = message.timestamp >>> 0;
    const extended = timestamp >= 0xffffff;
    const basic = id < 64 ? Uint8Array.of(id) : id < 320 ? Uint8Array.of(0, id - 64) : Uint8Array.of(1, (id - 64) & 0xff, (id - 64) >> 8);
    const field = extended ? 0xffffff : timestamp;
    const header0 = Uint8Array.of(
      (field >> 16) & 0xff,
      (field >> 8) & 0xff,
      field & 0xff,
      (payload.length >> 16) & 0xff,
      (payload.length >> 8) & 0xff,
      payload.length & 0xff,
      message.type,
      message.streamId & 0xff,
      (message.streamId >> 8) & 0xff,
      (message.streamId >> 16) & 0xff,
      (message.streamId >>> 24) & 0xff,
    );
    const ext = extended ? u32(timestamp) : new Uint8Array(0);
    const parts: Uint8Array[] = [];
    for (let offset = 0; offset < payload.length || offset === 0; offset += this.chunkSize) {
      if (offset === 0) parts.push(basic, header0);
      else {
        const continuation = basic.slice();
        continuation[0] = continuation[0]! | 0xc0;
        parts.push(continuation);
      }
      parts.push(ext, payload.subarray(offset, offset + this.chunkSize));
      if (payload.length === 0) break;
    }
    return concat(parts);
  }
}

/** Protocol control and user control messages as a server sends them (chunk stream 2, message stream 0). */
export const control = {
  setChunkSize: (size: number): RtmpMessage => ({ chunkStreamId: 2, type: MessageType.SetChunkSize, timestamp: 0, streamId: 0, payload: u32(size) }),
  acknowledgement: (bytes: number): RtmpMessage => ({ chunkStreamId: 2, type: MessageType.Acknowledgement, timestamp: 0, streamId: 0, payload: u32(bytes) }),
  windowAckSize: (size: number): RtmpMessage => ({ chunkStreamId: 2, type: MessageType.WindowAckSize, timestamp: 0, streamId: 0, payload: u32(size) }),
  /** Limit type 2 (dynamic), as servers send it. */
  setPeerBandwidth: (size: number): RtmpMessage => ({ chunkStreamId: 2, type: MessageType.SetPeerBandwidth, timestamp: 0, streamId: 0, payload: Uint8Array.of(...u32(size), 2) }),
  /** User Control event 0: the stream is ready for use. */
  streamBegin: (streamId: number): RtmpMessage => ({ chunkStreamId: 2, type: MessageType.UserControl, timestamp: 0, streamId: 0, payload: Uint8Array.of(0, 0, ...u32(streamId)) }),
};
