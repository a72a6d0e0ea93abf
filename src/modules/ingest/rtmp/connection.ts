/**
 * One RTMP connection, from handshake to the end of its publish: connect → releaseStream/FCPublish →
 * createStream → publish (the stream key checked through `authorize`) → media into a MediaSink →
 * FCUnpublish/deleteStream or the socket's close → `sink.end`. Anything out of order is dropped with one
 * log line; anything malformed ends the connection. `receive` never throws: a bad peer costs only itself.
 * Before its publish a connection is anyone's: a command is known by its name before its body is decoded
 * (what a publisher does not need then is dropped undecoded), what is decoded is bounded, and what it may
 * send each second is spent from an allowance the server keeps for it and its address. Once publishing,
 * messages other than media stay small and media may not run far ahead of real time: the connection
 * stops reading until the clock catches up, so a file pushed as fast as the link goes plays at its pace.
 * Transport-agnostic (TCP or TLS): the server hands it bytes and a way to write, pause and close.
 */

import type { Logger } from "../../../lib/logger.ts";
import type { MediaSink } from "../../../media/stream.ts";
import { Amf0Error, asObject } from "./amf0.ts";
import { ChunkReader, ChunkWriter, control, MessageType, RtmpProtocolError, readU32, type RtmpMessage } from "./chunks.ts";
import { decodeMessageValues, HANDLED_COMMANDS, METADATA_AMF0_BOUNDS, messageName, PUBLISH_STREAM_ID, readCommand, replies, SETUP_AMF0_BOUNDS, type Command } from "./commands.ts";
import { FlvDemuxer, FlvError } from "../../../media/formats/flv.ts";
import { ServerHandshake } from "./handshake.ts";
import type { RtmpLimits } from "./limits.ts";
import { readMetadata } from "./metadata.ts";
import { PublishMeter } from "./stats.ts";
import { TrackClock } from "./track-clock.ts";
import type { AuthorizeResult, ConnectionHooks, PublishSession, RtmpTransport } from "./connection-hooks.ts";

export type { AuthorizeResult, ConnectionHooks, PublishSession, RtmpTransport } from "./connection-hooks.ts";

type Phase = "handshake" | "connecting" | "connected" | "authorizing" | "publishing" | "closed";

const PEER_BANDWIDTH = 2_500_000;
const WINDOW_ACK_SIZE = 2_500_000;
const OUR_CHUNK_SIZE = 4096;

export class RtmpConnection {
  phase: Phase = "handshake";
  private readonly handshake = new ServerHandshake();
  private readonly reader: ChunkReader;
  private readonly writer = new ChunkWriter();
  private readonly demuxer = new FlvDemuxer();
  private readonly meter = new PublishMeter();
  private readonly videoClock = new TrackClock();
  private readonly audioClock = new TrackClock();
  private readonly logged = new Set<string>();
  private readonly openedAt = Date.now();
  private lastDataAt = Date.now();
  private app = "";
  private claimed: string | null = null;
  private sink: MediaSink | null = null;
  private session: PublishSession | null = null;
  private peerWindow = WINDOW_ACK_SIZE;
  private bytesAcknowledged = 0;
  /** The first media message of the publish: its time and when it came (what "ahead of real time" is measured from). */
  private mediaAnchor: { time: number; at: number } | null = null;
  /** Audio and video on one timeline, unwrapped: how far the publish has got. */
  private paceClock = new TrackClock();
  /** Not reading until then (media ahead of real time): not silence. */
  private pausedUntil = 0;
  /** Messages received but held back while media runs ahead of real time, in order. */
  private held: RtmpMessage[] = [];
  /** How far media may run ahead of real time, ms (no bound once the peer has gone: what it sent is all there is). */
  private maxAhead: number;

  constructor(
    readonly id: number,
    private readonly transport: RtmpTransport,
    private readonly limits: RtmpLimits,
    private readonly hooks: ConnectionHooks,
    private readonly logger: Logger,
  ) {
    this.reader = new ChunkReader(this.readerLimits(false));
    this.maxAhead = limits.maxMediaAheadMs;
  }

  get publishSession(): PublishSession | null {
    return this.session;
  }

  receive(data: Uint8Array): void {
    if (this.phase === "closed") return;
    const now = Date.now();
    this.lastDataAt = now;
    this.meter.bytes(data.length, now);
    if (this.phase !== "publishing" && !this.hooks.spend(data.length, 0, now)) return this.shed("sent more bytes than a publisher does before publishing");
    try {
      let rest = data;
      if (this.phase === "handshake") {
        const step = this.handshake.push(data);
        if (step.reply) this.transport.write(step.reply);
        if (!step.done) return;
        this.phase = "connecting";
        rest = step.rest;
      }
      const messages = this.reader.push(rest);
      if (this.held.length) {
        // Still held back: what comes now waits behind it (the socket is paused, so this stays a read or two).
        for (const message of messages) this.held.push(message);
      } else this.run(messages, now);
      if (this.meter.bytesIn - this.bytesAcknowledged >= this.peerWindow) {
        this.bytesAcknowledged = this.meter.bytesIn;
        this.send(control.acknowledgement(this.meter.bytesIn % 2 ** 32));
      }
    } catch (error) {
      this.failed(error);
    }
  }

  /** Handles messages in order; media ahead of real time stops it, the rest held until the clock catches up. */
  private run(messages: RtmpMessage[], now: number): void {
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      if (this.phase !== "publishing" && !this.hooks.spend(0, 1, now)) return this.shed("sent more messages than a publisher does before publishing");
      if (this.phase === "publishing" && (message.type === MessageType.Video || message.type === MessageType.Audio)) {
        const pace = this.pace(message.timestamp, now);
        if (pace === "hold") {
          this.held = messages.slice(i);
          return;
        }
        if (pace === "end") return;
      }
      this.handle(message);
      if (this.isClosed()) return;
    }
  }

  /** The pause is over: what was held goes on (and may be held again). */
  private resume(): void {
    if (this.isClosed()) return;
    const held = this.held;
    this.held = [];
    try {
      this.run(held, Date.now());
    } catch (error) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    if (error instanceof RtmpProtocolError || error instanceof Amf0Error) {
      this.log("warn", `protocol error: ${error.message}`);
      this.close(`protocol error: ${error.message}`);
    } else {
      this.logger.error(`rtmp #${this.id}: unexpected failure; connection closed`, error);
      this.close("server error");
    }
  }

  /** The socket closed (by the peer or by us). What was held back had been sent: it goes on before the end. */
  closed(): void {
    if (this.held.length && this.phase === "publishing") {
      const held = this.held;
      this.held = [];
      this.maxAhead = Infinity;
      try {
        this.run(held, Date.now());
      } catch (error) {
        this.failed(error);
      }
    }
    this.close("disconnected");
  }

  /** Ends the connection if it has been silent or setting up for too long. */
  checkTimeouts(now: number): void {
    if (this.phase === "closed") return;
    const silent = now - Math.max(this.lastDataAt, this.pausedUntil);
    if (this.phase === "publishing") {
      if (silent > this.limits.publishIdleTimeoutMs) this.timeout(`no data for ${Math.round(silent / 1000)} s`);
    } else if (silent > this.limits.setupIdleTimeoutMs) this.timeout(`no data for ${Math.round(silent / 1000)} s before publishing`);
    else if (this.phase !== "authorizing" && now - this.openedAt > this.limits.setupDeadlineMs && !this.sink) this.timeout("no publish in time");
  }

  close(reason: string): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.endSink(reason);
    this.transport.end();
    this.hooks.onClosed();
  }

  /** A method, not a field read: the phase changes inside calls the compiler cannot follow. */
  isClosed(): boolean {
    return this.phase === "closed";
  }

  private timeout(reason: string): void {
    this.log("info", `closed: ${reason}`);
    this.close(`timeout: ${reason}`);
  }

  /** Over its allowance before publishing: closed (the server counts such connections; no line each). */
  private shed(reason: string): void {
    this.close(reason);
  }

  private handle(message: RtmpMessage): void {
    switch (message.type) {
      case MessageType.CommandAmf0:
      case MessageType.CommandAmf3: {
        // Known by its name first: a command nothing answers is not worth decoding.
        const name = messageName(message);
        if (name === null) throw new RtmpProtocolError("command without a name");
        if (!HANDLED_COMMANDS.has(name)) return;
        return this.command(readCommand(message, SETUP_AMF0_BOUNDS));
      }
      case MessageType.DataAmf0:
      case MessageType.DataAmf3:
        return this.data(message);
      case MessageType.Video:
      case MessageType.Audio:
        return this.media(message);
      case MessageType.WindowAckSize:
        if (message.payload.length >= 4) this.peerWindow = Math.max(readU32(message.payload, 0), 4096);
        return;
      default:
        return; // chunk size and abort are applied by the reader; acknowledgements, user control and the rest need nothing
    }
  }

  private command(command: Command): void {
    const { name, transactionId } = command;
    if (name === "connect") return this.connect(command);
    if (this.phase === "connecting") return this.drop(`"${safeName(name)}" before connect`);
    switch (name) {
      case "releaseStream":
        return this.send(replies.result(transactionId));
      case "FCPublish":
        return this.send(replies.onFCPublish());
      case "createStream":
        return this.send(replies.result(transactionId, PUBLISH_STREAM_ID));
      case "publish":
        this.publish(command).catch((error: unknown) => {
          this.logger.error(`rtmp #${this.id}: publish failed`, error);
          this.close("server error");
        });
        return;
      case "FCUnpublish":
        this.send(replies.onFCUnpublish());
        return this.endSink("unpublished");
      case "deleteStream":
      case "closeStream":
        return this.endSink("unpublished");
      case "play":
      case "play2":
        this.log("info", "refused a play request: this server only takes publishers");
        this.send(replies.onStatus("error", "NetStream.Play.Failed", "This server only accepts publishing"));
        return this.close("play refused");
      default:
        return; // _checkbw, getStreamLength, _result of our own calls…: nothing to answer
    }
  }

  private connect(command: Command): void {
    if (this.phase !== "connecting") return this.drop("a second connect");
    const app = asObject(command.object)?.app;
    if (typeof app !== "string" || app.length > 256) {
      this.send(replies.connectRejected(command.transactionId, "connect needs an app name"));
      return this.close("connect without an app");
    }
    this.app = app.replace(/\/+$/, "");
    this.phase = "connected";
    this.send(control.windowAckSize(WINDOW_ACK_SIZE));
    this.send(control.setPeerBandwidth(PEER_BANDWIDTH));
    this.send(control.setChunkSize(OUR_CHUNK_SIZE));
    this.writer.setChunkSize(OUR_CHUNK_SIZE);
    this.send(replies.connectSuccess(command.transactionId));
  }

  private async publish(command: Command): Promise<void> {
    if (this.phase !== "connected") return this.drop(`publish while ${this.phase}`);
    const key = command.args[0];
    const wait = this.hooks.waitMs(Date.now());
    if (wait > 0) {
      // After a burst of wrong keys the address waits; its key is not even looked at until then.
      this.send(replies.onStatus("error", "NetStream.Publish.BadName", `Too many wrong stream keys from this address: try again in ${Math.ceil(wait / 1000)} s`));
      return this.close("publish refused (waiting after wrong keys)");
    }
    if (typeof key !== "string" || key === "" || key.length > 1024) return this.refuse("bad key");
    this.phase = "authorizing";
    let result: AuthorizeResult;
    try {
      result = await this.hooks.authorize(this.app, key, this.transport.remoteAddress);
    } catch (error) {
      this.logger.error(`rtmp #${this.id}: the stream key check failed`, error);
      result = "bad key";
    }
    if (this.phase !== "authorizing") return; // closed meanwhile
    const name = `${this.app}/${key}`;
    if (result === "ok" && !this.hooks.claim(name)) result = "busy";
    if (result !== "ok") return this.refuse(result);
    this.claimed = name;
    const session: PublishSession = {
      id: this.id,
      app: this.app,
      remoteAddress: this.transport.remoteAddress,
      startedAt: new Date(),
      stats: () => this.meter.snapshot(),
      close: (reason = "dropped by the server") => this.close(reason),
    };
    try {
      this.sink = this.hooks.onPublish(session);
    } catch (error) {
      this.logger.error(`rtmp #${this.id}: the publish could not start`, error);
      this.send(replies.onStatus("error", "NetStream.Publish.Failed", "The server could not start this publish"));
      return this.close("publish failed to start");
    }
    this.session = session;
    this.phase = "publishing";
    this.mediaAnchor = null;
    this.paceClock = new TrackClock();
    this.hooks.onPublishing(true);
    this.reader.setLimits(this.readerLimits(true));
    this.send(control.streamBegin(PUBLISH_STREAM_ID));
    this.send(replies.onStatus("status", "NetStream.Publish.Start", "Publishing"));
    this.log("info", `publishing on app "${safeName(this.app)}"`);
  }

  private refuse(result: "bad key" | "busy"): void {
    const description = result === "busy" ? "Another publisher is live on this stream key" : "Stream key refused";
    // Wrong keys are counted and logged per address, once per burst; the rest here.
    if (result === "bad key") this.hooks.onWrongKey(Date.now());
    else this.log("warn", `publish refused: ${description.toLowerCase()}`);
    this.send(replies.onStatus("error", "NetStream.Publish.BadName", description));
    this.close(`publish refused (${result})`);
  }

  private data(message: RtmpMessage): void {
    const name = messageName(message);
    if (name !== "@setDataFrame" && name !== "onMetaData") return; // nothing else is read
    if (this.phase !== "publishing" || !this.sink) return this.drop("metadata before publish");
    let values;
    try {
      values = decodeMessageValues(message, METADATA_AMF0_BOUNDS);
    } catch (error) {
      if (!(error instanceof Amf0Error)) throw error;
      return this.drop(`metadata that cannot be read (${error.message})`);
    }
    const [first, second, third] = values;
    const meta = first === "@setDataFrame" && second === "onMetaData" ? third : first === "onMetaData" ? second : undefined;
    if (meta === undefined) return;
    this.sink.metadata(readMetadata(meta));
  }

  /**
   * Media running ahead of real time (a file pushed as fast as the link goes): the connection stops
   * reading, and holds what it has, until the clock catches up. Far ahead is timestamps jumping, not a
   * fast sender: the publish ends.
   */
  private pace(timestamp: number, now: number): "go" | "hold" | "end" {
    const time = this.paceClock.dts(timestamp);
    const anchor = (this.mediaAnchor ??= { time, at: now });
    const ahead = time - anchor.time - (now - anchor.at);
    const max = this.maxAhead;
    if (ahead <= max) return "go";
    if (ahead > max * 10) {
      this.log("warn", `publish ended: its timestamps run ${Math.round(ahead / 1000)} s ahead of real time`);
      this.close("media timestamps far ahead of real time");
      return "end";
    }
    const pause = Math.min(ahead - max / 2, max);
    this.pausedUntil = now + pause;
    this.transport.pause(pause, () => this.resume());
    this.drop("media faster than real time (held back to its pace)");
    return "hold";
  }

  private media(message: RtmpMessage): void {
    const sink = this.sink;
    if (this.phase !== "publishing" || !sink) return this.drop("media before publish");
    const video = message.type === MessageType.Video;
    try {
      if (video) {
        const tag = this.demuxer.video(message.payload, message.timestamp);
        if (tag.kind === "unsupported") return this.unsupported(tag.reason);
        if (tag.kind === "config") sink.videoConfig(tag.config);
        if (tag.kind !== "frame") return;
        const dts = this.videoClock.dts(tag.frame.dts);
        const frame = { ...tag.frame, pts: tag.frame.pts - tag.frame.dts + dts, dts };
        this.meter.video(frame.dts, frame.keyframe);
        sink.video(frame);
      } else {
        const tag = this.demuxer.audio(message.payload, message.timestamp);
        if (tag.kind === "unsupported") return this.unsupported(tag.reason);
        if (tag.kind === "config") sink.audioConfig(tag.config);
        if (tag.kind !== "frame") return;
        const dts = this.audioClock.dts(tag.frame.dts);
        this.meter.audio();
        sink.audio({ ...tag.frame, dts });
      }
    } catch (error) {
      if (!(error instanceof FlvError)) throw error;
      this.drop(`malformed ${video ? "video" : "audio"}: ${error.message}`);
    }
  }

  private unsupported(reason: string): void {
    this.log("warn", reason);
    this.close(reason);
  }

  private endSink(reason: string): void {
    if (this.claimed) this.hooks.release(this.claimed);
    this.claimed = null;
    const sink = this.sink;
    this.sink = null;
    if (this.phase === "publishing") {
      this.phase = "connected";
      this.hooks.onPublishing(false);
    }
    if (!sink) return;
    this.log("info", `publish ended: ${reason}`);
    try {
      sink.end(reason);
    } catch (error) {
      this.logger.error(`rtmp #${this.id}: the media sink failed to end`, error);
    }
  }

  private send(message: RtmpMessage): void {
    this.transport.write(this.writer.encode(message));
  }

  /** Something out of order: dropped, logged once per kind per connection. */
  private drop(what: string): void {
    if (this.logged.has(what)) return;
    this.logged.add(what);
    this.log("warn", `dropped ${what}`);
  }

  private log(level: "info" | "warn", message: string): void {
    const line = `rtmp #${this.id} ${this.transport.remoteAddress}: ${message}`;
    // Before a publish anyone can make lines: the server keeps them few per address.
    if (this.session) this.logger[level](line);
    else this.hooks.log(level, line);
  }

  private readerLimits(publishing: boolean) {
    const maxMessageBytes = publishing ? this.limits.maxMessageBytes : this.limits.maxSetupMessageBytes;
    return {
      maxMessageBytes,
      maxOtherMessageBytes: this.limits.maxNonMediaMessageBytes,
      maxChunkStreams: this.limits.maxChunkStreams,
      maxInFlightBytes: maxMessageBytes + 1024 * 1024,
    };
  }
}

/** Client-chosen names go into logs only when they are plain words. */
function safeName(name: string): string {
  return /^[\w@.-]{1,64}$/.test(name) ? name : "(unprintable)";
}
