/**
 * The built-in ingest's life in the app: the RTMP (and RTMPS) listener open only while the stream source
 * is "ingest", one publisher at a time checked against the stream key, every publish feeding the one
 * packager the viewer routes read, and whether there is a stream to watch (what playback tells pages).
 */
import { readFileSync } from "node:fs";
import type { Config } from "../../config.ts";
import type { StreamKind } from "../../contracts/stream.ts";
import { conflict } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { Packager } from "./hls/packager.ts";
import type { AudioConfig, MediaSink, VideoCodec } from "./media.ts";
import type { StreamKeyStore } from "./key.ts";
import { type AuthorizeResult, type PublishSession, type RtmpServer, RtmpPortInUseError, startRtmpServer } from "./rtmp/server.ts";

/** The RTMP application OBS's "Server" field ends in. */
export const INGEST_APP = "live";

/**
 * How long a publisher may be gone before pages are told the stream is offline: OBS reconnects after a
 * couple of seconds, and a reconnect within this goes on in the same players without a reload.
 */
export const OFFLINE_AFTER_MS = 5000;

/** What the admin's view needs of the publish in progress. */
export interface LivePublish {
  session: PublishSession;
  videoCodec: VideoCodec | null;
  audio: AudioConfig | null;
}

export class IngestService {
  private rtmp: RtmpServer | null = null;
  private rtmps: RtmpServer | null = null;
  private current: Packager | null = null;
  /** Open and close, one after the other (a save and a reload elsewhere may ask at once). */
  private queue: Promise<unknown> = Promise.resolve();
  private publish: LivePublish | null = null;
  private watchable = false;
  private offlineTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why the listener could not open for the saved "ingest" kind (a port taken at start), until it opens. */
  openFailure: string | null = null;
  /** Why the last publish was refused for its codecs, until a publish goes out. */
  lastRefusal: string | null = null;
  /** Told when the stream becomes watchable or stops being (pages fetch their playback again). */
  onWatchableChange: () => void = () => {};

  constructor(
    private readonly config: Config,
    readonly keys: StreamKeyStore,
    private readonly log: Logger,
  ) {}

  /** The packager viewers read, or null while the listener is closed. */
  get packager(): Packager | null {
    return this.current;
  }

  /** The ports listened on (RTMPS null without a certificate), or null while closed. */
  get ports(): { rtmp: number; rtmps: number | null } | null {
    return this.rtmp ? { rtmp: this.rtmp.port, rtmps: this.rtmps?.port ?? null } : null;
  }

  get live(): LivePublish | null {
    return this.publish;
  }

  /** A publisher's stream can be watched (or it left so recently that it may be back any moment). */
  watchableNow(): boolean {
    return this.watchable;
  }

  /**
   * Opens the listener (for a save of the "ingest" kind): 409 when a port is taken, nothing left open.
   * Already open: nothing to do.
   */
  open(): Promise<void> {
    return this.serially(async () => {
      if (this.rtmp) return;
      try {
        await this.start();
      } catch (error) {
        if (error instanceof RtmpPortInUseError) {
          const flag = error.port === this.config.rtmpsPort && this.config.tlsCert ? "--rtmps-port" : "--rtmp-port";
          throw conflict(`The RTMP port ${error.port} is already in use on this server: stop the program holding it, or start dreadcast with another ${flag}.`);
        }
        throw error;
      }
    });
  }

  /** Opens for the "ingest" kind, closes for any other; a failure to open is logged (at start, or told by another instance). */
  async follow(kind: StreamKind): Promise<void> {
    if (kind !== "ingest") return this.close();
    try {
      await this.open();
    } catch (error) {
      this.openFailure = (error as Error).message;
      this.log.warn(`the built-in ingest is not listening: ${this.openFailure}`);
    }
  }

  /** Closes the listener: the publisher is dropped and what was packaged freed. */
  close(): Promise<void> {
    return this.serially(async () => {
      const servers = [this.rtmp, this.rtmps];
      this.rtmp = this.rtmps = null;
      await Promise.all(servers.map((server) => server?.close()));
      this.current?.close();
      this.current = null;
      this.publish = null;
      this.setWatchable(false);
    });
  }

  /** A new stream key; the publisher using the old one is dropped. */
  async rotateKey(): Promise<string> {
    const key = await this.keys.rotate();
    for (const server of [this.rtmp, this.rtmps]) for (const session of server?.publishers() ?? []) session.close("stream key rotated");
    this.log.info("ingest: stream key rotated; the publisher (if any) was dropped");
    return key;
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  private async start(): Promise<void> {
    const options = { host: this.config.host, logger: this.log, authorize: (app: string, key: string) => this.authorize(app, key), onPublish: (session: PublishSession) => this.onPublish(session) };
    const packager = new Packager();
    const rtmp = await startRtmpServer({ ...options, port: this.config.rtmpPort });
    let rtmps: RtmpServer | null = null;
    if (this.config.tlsCert && this.config.tlsKey) {
      try {
        // Read at each opening: a certificate renewed on disk is taken up the next time the kind is chosen.
        rtmps = await startRtmpServer({ ...options, port: this.config.rtmpsPort, tls: { cert: readFileSync(this.config.tlsCert), key: readFileSync(this.config.tlsKey) } });
      } catch (error) {
        await rtmp.close();
        throw error;
      }
    }
    this.rtmp = rtmp;
    this.rtmps = rtmps;
    this.openFailure = null;
    this.current = packager;
  }

  private async authorize(app: string, key: string): Promise<AuthorizeResult> {
    if (app !== INGEST_APP) {
      this.log.warn(`ingest: publish refused: the server address must end in /${INGEST_APP}`);
      return "bad key";
    }
    if (!(await this.keys.matches(key))) return "bad key";
    return this.publish ? "busy" : "ok";
  }

  /** One publish at a time across RTMP and RTMPS; its media goes to the packager, watched for when it can be played. */
  private onPublish(session: PublishSession): MediaSink {
    const packager = this.current;
    if (!packager) throw new Error("the ingest is closing");
    if (this.publish) throw new Error("another publisher is live");
    const publish: LivePublish = { session, videoCodec: null, audio: null };
    this.publish = publish;
    if (this.offlineTimer) clearTimeout(this.offlineTimer);
    this.offlineTimer = null;
    const check = () => {
      if (!this.watchable && packager.isLive && packager.ready) {
        this.lastRefusal = null;
        this.setWatchable(true);
      }
    };
    return {
      metadata: (meta) => packager.metadata(meta),
      videoConfig: (config) => {
        publish.videoCodec = config.codec;
        packager.videoConfig(config);
      },
      audioConfig: (config) => {
        publish.audio = config;
        packager.audioConfig(config);
      },
      video: (frame) => {
        packager.video(frame);
        check();
      },
      audio: (frame) => {
        packager.audio(frame);
        check();
      },
      end: (reason) => {
        packager.end(reason);
        if (reason.startsWith("unsupported")) this.lastRefusal = reason;
        if (this.publish !== publish) return;
        this.publish = null;
        if (this.current !== packager) return;
        this.offlineTimer = setTimeout(() => {
          this.offlineTimer = null;
          if (!this.publish) this.setWatchable(false);
        }, OFFLINE_AFTER_MS);
        this.offlineTimer.unref?.();
      },
    };
  }

  private setWatchable(watchable: boolean): void {
    if (!watchable && this.offlineTimer) {
      clearTimeout(this.offlineTimer);
      this.offlineTimer = null;
    }
    if (this.watchable === watchable) return;
    this.watchable = watchable;
    this.onWatchableChange();
  }
}
