import type { Store } from "../../db/store.ts";
import { SECRET_FIELDS, type StreamKind, type StreamSourceBody, type StreamSourceView } from "../../contracts/stream.ts";
import { fieldError } from "../../lib/errors.ts";
import type { SettingsService } from "../settings/service.ts";
import { loadRsaPrivateKey, toPem } from "./keys.ts";
import { ALLOW_PRIVATE_FLAG, checkedAddress, OriginRefused } from "./origin.ts";
import { BunnyProvider, CloudflareProvider, EmbedProvider, HlsRelayProvider, IngestProvider, MuxProvider, type PlaybackProvider } from "./providers.ts";

interface SourceRow {
  kind: StreamKind;
  fields: string;
  watermark: number;
}

/** The saved source: its kind, its fields (secrets included, keys as PKCS#8 PEM) and the watermark switch. */
interface StoredSource {
  kind: StreamKind;
  fields: Record<string, string>;
  watermark: boolean;
}

/** How long the admin waits at most for the origin's name to be looked up. */
const ORIGIN_LOOKUP_TIMEOUT_MS = 5000;

const KEY_FIELDS: Record<string, string> = { signingKey: "Signing key", privateKey: "Private key" };

/** What runs on this server while the "ingest" kind is chosen: the built-in ingest's RTMP listener. */
export interface IngestListener {
  /** Opens it; an HttpError (409 for a port taken) when it cannot, with nothing left open. */
  open(): Promise<void>;
  /** Opens it for "ingest", closes it for any other kind (a failure to open is logged, not thrown). */
  follow(kind: StreamKind): Promise<void>;
  /** A publisher's stream can be watched. */
  watchableNow(): boolean;
}

/**
 * The stream source chosen in the admin panel and the provider that turns it into playback addresses.
 * The server is the only writer of the row, so the provider is built once per save and kept.
 */
export class StreamSourceService {
  private cached: { source: StoredSource; provider: PlaybackProvider } | null = null;
  /** Told after the admin saved a new source (the other instances of a cluster read it again). */
  onSaved: () => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    /** --allow-private-origins: an HLS origin on this machine or its network is accepted. */
    private readonly allowPrivateOrigins: boolean,
    private readonly ingest: IngestListener,
  ) {}

  /** Reads the saved source and builds its provider (at start, and after a save here or elsewhere). */
  async load(): Promise<void> {
    const row = (await this.store.get<SourceRow>("SELECT kind, fields, watermark FROM stream_source WHERE id = 1"))!;
    const source: StoredSource = { kind: row.kind, fields: JSON.parse(row.fields) as Record<string, string>, watermark: row.watermark === 1 };
    this.cached = { source, provider: this.providerFor(source) };
    await this.ingest.follow(source.kind);
  }

  private current() {
    if (!this.cached) throw new Error("the stream source is not loaded yet");
    return this.cached;
  }

  private providerFor({ kind, fields: f }: StoredSource): PlaybackProvider {
    const key = (text: string | undefined) => loadRsaPrivateKey(text ?? "")!;
    switch (kind) {
      case "embed":
        return new EmbedProvider(async () => (await this.settings.get()).embedUrl);
      case "mux":
        return new MuxProvider({ playbackId: f.playbackId!, signingKeyId: f.signingKeyId!, key: key(f.signingKey) });
      case "cloudflare":
        return new CloudflareProvider({ customerCode: f.customerCode!, videoUid: f.videoUid!, keyId: f.keyId!, key: key(f.privateKey) });
      case "bunny":
        return new BunnyProvider({ libraryId: f.libraryId!, videoId: f.videoId!, tokenKey: f.tokenKey! });
      case "hls":
        return new HlsRelayProvider(f.originUrl!);
      case "ingest":
        return new IngestProvider(() => this.ingest.watchableNow());
    }
  }

  provider(): PlaybackProvider {
    return this.current().provider;
  }

  watermark(): boolean {
    return this.current().source.watermark;
  }

  /** The HLS origin the relay may fetch from, or null when another kind is chosen. */
  relayOrigin(): string | null {
    const { source } = this.current();
    return source.kind === "hls" ? source.fields.originUrl! : null;
  }

  /** Whether viewers have a stream to be given: a source other than the plain embed (saved whole, as checked), or an embed address. */
  async isSet(): Promise<boolean> {
    return this.current().source.kind !== "embed" || (await this.settings.get()).embedUrl !== "";
  }

  /** The kind of source chosen. */
  kind(): StoredSource["kind"] {
    return this.current().source.kind;
  }

  /** The saved source with its secrets masked. */
  async view(): Promise<StreamSourceView> {
    const { kind, fields, watermark } = this.current().source;
    if (kind === "embed") return { kind, embedUrl: (await this.settings.get()).embedUrl, watermark };
    const shown: Record<string, string | boolean> = { ...fields };
    for (const name of SECRET_FIELDS[kind]) {
      delete shown[name];
      shown[`${name}Set`] = Boolean(fields[name]);
    }
    return { kind, ...shown, watermark } as StreamSourceView;
  }

  /**
   * Saves a validated body in one transaction. A secret left empty keeps the one saved for the same kind;
   * a key that no RSA parser accepts, or an HLS origin inside this machine or its network (unless allowed),
   * is refused with its field named, before anything is written.
   */
  async save(body: StreamSourceBody): Promise<StreamSourceView> {
    const { kind, watermark, ...given } = body;
    const previous = this.current().source;
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(given)) if (typeof value === "string" && value.trim()) fields[name] = value.trim();
    for (const name of SECRET_FIELDS[kind]) {
      if (!fields[name] && previous.kind === kind && previous.fields[name]) fields[name] = previous.fields[name];
      if (!fields[name]) throw fieldError(name, `${KEY_FIELDS[name] ?? "Token authentication key"} is required`);
      if (KEY_FIELDS[name]) {
        const key = loadRsaPrivateKey(fields[name]);
        if (!key) throw fieldError(name, `${KEY_FIELDS[name]} is not a valid RSA private key`);
        fields[name] = toPem(key);
      }
    }
    if (kind === "hls" && !this.allowPrivateOrigins) await this.checkOrigin(fields.originUrl!);
    // A page link becomes its player; a link that is no player is refused before anything is written.
    const embedUrl = kind === "embed" ? this.settings.embedLink(fields.embedUrl ?? "") : null;
    delete fields.embedUrl;
    // The RTMP port is taken before the kind is saved: a port in use refuses the save (409).
    if (kind === "ingest") await this.ingest.open();
    try {
      await this.store.tx(async () => {
        if (embedUrl !== null) await this.settings.setEmbedUrl(embedUrl);
        await this.store.run(
          "UPDATE stream_source SET kind = ?, fields = ?, watermark = ?, updated_at = ? WHERE id = 1",
          kind,
          JSON.stringify(fields),
          (watermark ?? kind !== "embed") ? 1 : 0,
          Date.now(),
        );
      });
    } catch (error) {
      // Not saved: the listener follows the kind still saved.
      await this.ingest.follow(previous.kind);
      throw error;
    }
    await this.load();
    this.onSaved();
    return this.view();
  }

  /** 400 on the origin field when the relay would fetch from this machine or its network (the relay checks again on every fetch). */
  private async checkOrigin(originUrl: string): Promise<void> {
    try {
      await checkedAddress(new URL(originUrl), AbortSignal.timeout(ORIGIN_LOOKUP_TIMEOUT_MS));
    } catch (error) {
      if (error instanceof OriginRefused) {
        throw fieldError(
          "originUrl",
          `Origin URL is refused: ${error.message}. The relay fetches from this machine or its private network only when dreadcast runs with ${ALLOW_PRIVATE_FLAG}.`,
        );
      }
      throw fieldError("originUrl", "Origin URL's host name could not be looked up in time. Check it, or try again.");
    }
  }
}
