/**
 * The built-in ingest's life in the app: the RTMP (and RTMPS) listener open only while the stream source
 * is "ingest", one publisher at a time checked against the stream key, every publish feeding the one
 * packager the viewer routes read, and whether there is a stream to watch (what playback tells pages).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { LEASE_RENEW_MS, type Cluster } from "../../cluster/cluster.ts";
import { SoloCluster } from "../../cluster/solo-cluster.ts";
import type { Config } from "../../config.ts";
import type { StreamKind } from "../../contracts/stream.ts";
import { conflict } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { Packager } from "./hls/packager.ts";
import type { SegmentKeeper } from "../../media/hls/segment.ts";
import type { MediaSink } from "../../media/stream.ts";
import type { StreamKeyStore } from "./key.ts";
import { FOLLOW_EVERY_MS, INGEST_APP, mergeWrongKeys, OFFLINE_AFTER_MS, type LivePublish } from "./publish.ts";
import { RefusalLog } from "./refusals.ts";

export { INGEST_APP, OFFLINE_AFTER_MS, type LivePublish } from "./publish.ts";
import { IngestMirror, leaderValue, parseLeader, PUBLISHER_LEASE, refusesConnections, secretMatches, type Leader } from "./mirror.ts";
import { CERTIFICATE_CHECK_MS, startRtmpsServer } from "./rtmp/certificate-watch.ts";
import { type AuthorizeResult, type PublishSession, type RtmpServer, RtmpPortInUseError, startRtmpServer, type WrongKeyReport } from "./rtmp/server.ts";

export class IngestService {
  private rtmp: RtmpServer | null = null;
  private rtmps: RtmpServer | null = null;
  private current: Packager | null = null;
  /** Keeps each publish session as a recording (the replay); none where recording is off. */
  recorder: SegmentKeeper | null = null;
  /** Open and close, one after the other (a save and a reload elsewhere may ask at once). */
  private queue: Promise<unknown> = Promise.resolve();
  private publish: LivePublish | null = null;
  private watchable = false;
  private offlineTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why the listener could not open for the saved "ingest" kind (a port taken at start), until it opens. */
  openFailure: string | null = null;
  /** Why the last publish was refused for its codecs, until a publish goes out. */
  lastRefusal: string | null = null;
  /** Publishes refused lately (a second publisher, a wrong server address, codecs), one entry per burst. */
  readonly refusals = new RefusalLog();
  /** Told when the stream becomes watchable or stops being (pages fetch their playback again). */
  onWatchableChange: () => void = () => {};
  /** In a cluster: what the other instances must show to read this one's packager (told them in the publisher's lease). */
  private readonly secret = randomBytes(24).toString("base64url");
  /** The publishing instance's stream, while another instance holds the publisher (or held it last). */
  private mirror: IngestMirror | null = null;
  /** Another instance holds the publisher now. */
  private elsewhere: Leader | null = null;
  private followTimer: ReturnType<typeof setInterval> | null = null;
  /** How often a renewed RTMPS certificate is looked for (shorter in tests). */
  certificateCheckMs = CERTIFICATE_CHECK_MS;
  private following = false;
  /** Pages are told once the new publishing instance's stream can be read. */
  private announceMirror = false;
  private renewTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly config: Config,
    readonly keys: StreamKeyStore,
    private readonly log: Logger,
    private readonly cluster: Cluster = new SoloCluster(config.instanceName),
    /** The port the HTTP server bound (the internal address's default). */
    private readonly httpPort: () => number = () => config.port,
  ) {}

  /** The packager of this instance's own publishes, or null while the listener is closed. */
  get packager(): Packager | null {
    return this.current;
  }

  /** What viewers here read: this instance's packager, or the publishing instance's stream mirrored. */
  get source(): Packager | IngestMirror | null {
    return this.current ? (this.mirror ?? this.current) : null;
  }

  /** The instance holding the publisher when it is another one (its figures are shown there). */
  get publishingElsewhere(): string | null {
    return this.elsewhere?.instance ?? null;
  }

  /** Whether a request to the internal path carries this instance's secret. */
  internalSecretMatches(given: string | null): boolean {
    return this.cluster.clustered && secretMatches(this.secret, given);
  }

  /** Where the other instances reach this one: --internal-url, else --host (or this machine's name) and the bound port. */
  private internalUrl(): string {
    if (this.config.internalUrl) return this.config.internalUrl;
    const host = ["0.0.0.0", "::", ""].includes(this.config.host) ? hostname() : this.config.host.includes(":") ? `[${this.config.host}]` : this.config.host;
    return `http://${host}:${this.httpPort()}`;
  }

  private lease(): string {
    return leaderValue({ instance: this.cluster.name, url: this.internalUrl(), secret: this.secret });
  }

  /** A message from another instance: the key rotated (drop the publisher here too), or a publish began or ended. */
  onClusterMessage(what: "drop" | "changed"): void {
    if (what === "drop") this.dropPublishers("stream key rotated");
    else void this.followLeader();
  }

  /** The ports listened on (RTMPS null without a certificate), or null while closed. */
  get ports(): { rtmp: number; rtmps: number | null } | null {
    return this.rtmp ? { rtmp: this.rtmp.port, rtmps: this.rtmps?.port ?? null } : null;
  }

  get live(): LivePublish | null {
    return this.publish;
  }

  /** Addresses refused for wrong stream keys lately (RTMP and RTMPS together), the most tries first. */
  wrongKeys(): WrongKeyReport[] {
    return mergeWrongKeys([...(this.rtmp?.wrongKeys() ?? []), ...(this.rtmps?.wrongKeys() ?? [])]);
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
      if (this.followTimer) clearInterval(this.followTimer);
      this.followTimer = null;
      this.mirror = this.elsewhere = null;
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
    this.dropPublishers("stream key rotated");
    // The publisher may be on another instance of the cluster.
    this.cluster.send({ k: "ingest", what: "drop" });
    this.log.info("ingest: stream key rotated; the publisher (if any) was dropped");
    return key;
  }

  private dropPublishers(reason: string): void {
    for (const server of [this.rtmp, this.rtmps]) for (const session of server?.publishers() ?? []) session.close(reason);
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  private async start(): Promise<void> {
    const options = {
      host: this.config.host,
      logger: this.log,
      authorize: (app: string, key: string, address: string) => this.authorize(app, key, address),
      onPublish: (session: PublishSession) => this.onPublish(session),
      trustProxy: this.config.trustProxy,
    };
    const packager = new Packager();
    const rtmp = await startRtmpServer({ ...options, port: this.config.rtmpPort });
    let rtmps: RtmpServer | null = null;
    if (this.config.tlsCert && this.config.tlsKey) {
      try {
        // Read at each opening, and again whenever the files change (a renewal) while it is open.
        rtmps = await startRtmpsServer({ ...options, port: this.config.rtmpsPort }, { cert: this.config.tlsCert, key: this.config.tlsKey }, this.certificateCheckMs);
      } catch (error) {
        await rtmp.close();
        throw error;
      }
    }
    this.rtmp = rtmp;
    this.rtmps = rtmps;
    this.openFailure = null;
    this.current = packager;
    if (this.cluster.clustered) {
      this.followTimer = setInterval(() => void this.followLeader(), FOLLOW_EVERY_MS);
      this.followTimer.unref?.();
      void this.followLeader();
    }
  }

  /**
   * Looks who holds the publisher: another instance's stream is mirrored for the viewers here; nobody
   * (it ended, or its instance died and the lease ran out) means offline after the grace for a reconnect.
   */
  private async followLeader(): Promise<void> {
    if (!this.current || !this.cluster.clustered || this.following) return;
    this.following = true;
    try {
      const leader = parseLeader(await this.cluster.holder(PUBLISHER_LEASE));
      if (!this.current) return;
      if (!leader || leader.instance === this.cluster.name) {
        this.elsewhere = null;
        if (!leader && this.mirror && !this.publish && this.watchable && !this.offlineTimer) this.goingOffline();
        return;
      }
      this.elsewhere = leader;
      if (this.publish) return;
      const mirror = this.mirror;
      if (!mirror || mirror.leader.url !== leader.url || mirror.leader.secret !== leader.secret) {
        this.mirror = new IngestMirror(leader);
        this.announceMirror = this.watchable;
        this.log.info(`ingest: ${leader.instance} has the publisher; its stream is served here`);
      }
      if (this.offlineTimer) {
        clearTimeout(this.offlineTimer);
        this.offlineTimer = null;
      }
      if (this.watchable && !this.announceMirror) return;
      if ((await this.mirror!.multivariantPlaylist()) === null) return;
      if (this.announceMirror) {
        // Another instance took over: pages fetch their playback again and load the new playlist.
        this.announceMirror = false;
        if (this.watchable) this.onWatchableChange();
      }
      this.setWatchable(true);
    } catch (error) {
      this.log.warn(`ingest: could not look who has the publisher: ${(error as Error).message}`);
    } finally {
      this.following = false;
    }
  }

  /**
   * One publisher in the whole cluster: the lease is taken (or renewed) for this instance. One held by an
   * instance whose port refuses connections (it died) is taken over rather than waited out. While Redis
   * cannot be asked, this instance decides alone.
   */
  private async claimPublisher(): Promise<boolean> {
    const mine = this.lease();
    const claimed = await this.cluster.claim(PUBLISHER_LEASE, mine);
    if (claimed !== false) return true;
    const raw = await this.cluster.holder(PUBLISHER_LEASE);
    const holder = parseLeader(raw);
    if (raw === null) return (await this.cluster.claim(PUBLISHER_LEASE, mine)) !== false;
    if (!holder || holder.instance === this.cluster.name || !(await refusesConnections(holder.url))) return false;
    this.log.warn(`ingest: ${holder.instance} has the publisher but does not answer: this instance takes it over`);
    await this.cluster.release(PUBLISHER_LEASE, raw);
    return (await this.cluster.claim(PUBLISHER_LEASE, mine)) !== false;
  }

  private async authorize(app: string, key: string, address: string): Promise<AuthorizeResult> {
    if (app !== INGEST_APP) {
      this.log.warn(`ingest: publish refused: the server address must end in /${INGEST_APP}`);
      this.refusals.add(address, `the server address must end in /${INGEST_APP}`);
      return "bad key";
    }
    if (!(await this.keys.matches(key))) return "bad key";
    if (this.publish) {
      this.refusals.add(address, "another publisher is already live with this key");
      return "busy";
    }
    if (!(await this.claimPublisher())) {
      this.log.warn("ingest: publish refused: another instance of the cluster has the publisher");
      this.refusals.add(address, "another publisher is already live with this key (on another instance)");
      return "busy";
    }
    return "ok";
  }

  /** One publish at a time across RTMP and RTMPS; its media goes to the packager, watched for when it can be played. */
  private onPublish(session: PublishSession): MediaSink {
    const packager = this.current;
    if (!packager) throw new Error("the ingest is closing");
    if (this.publish) throw new Error("another publisher is live");
    const publish: LivePublish = { session, videoCodec: null, audio: null };
    this.publish = publish;
    // Each publish session is kept as a recording of its own (the replay), segment by segment.
    let size = { width: 0, height: 0 };
    const recording = this.recorder?.open(() => size) ?? null;
    packager.onSegment = recording ? (segment, init) => recording.add(segment, init) : null;
    if (this.offlineTimer) clearTimeout(this.offlineTimer);
    this.offlineTimer = null;
    if (this.cluster.clustered) this.lead(publish);
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
        size = { width: config.width, height: config.height };
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
        if (recording) {
          packager.onSegment = null;
          void recording.close().catch((error: unknown) => this.log.error("replay: could not close the recording", error));
        }
        if (reason.startsWith("unsupported")) {
          this.lastRefusal = reason;
          this.refusals.add(session.remoteAddress, reason);
        }
        if (this.publish !== publish) return;
        this.publish = null;
        if (this.cluster.clustered) this.stopLeading();
        if (this.current !== packager) return;
        this.goingOffline();
      },
    };
  }

  /** Offline unless a publisher (here or elsewhere) comes within the grace for a reconnect. */
  private goingOffline(): void {
    this.offlineTimer = setTimeout(() => {
      this.offlineTimer = null;
      if (!this.publish && !this.elsewhere) this.setWatchable(false);
    }, OFFLINE_AFTER_MS);
    this.offlineTimer.unref?.();
  }

  /** This instance has the publisher: viewers here read its own packager, the others are told, and the lease is kept. */
  private lead(publish: LivePublish): void {
    this.mirror = this.elsewhere = null;
    this.announceMirror = false;
    this.cluster.send({ k: "ingest", what: "changed" });
    const lease = this.lease();
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = setInterval(() => {
      void this.cluster.claim(PUBLISHER_LEASE, lease).then((held) => {
        // Another instance has it (this one was cut off from Redis past the lease): one publisher only.
        if (held === false && this.publish === publish) publish.session.close("another instance of the cluster has the publisher");
      });
    }, LEASE_RENEW_MS);
    this.renewTimer.unref?.();
  }

  private stopLeading(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    void this.cluster.release(PUBLISHER_LEASE, this.lease()).then(() => this.cluster.send({ k: "ingest", what: "changed" }));
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
