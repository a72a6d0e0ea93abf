import { readFileSync, statSync } from "node:fs";
import type { Logger } from "../../../lib/logger.ts";
import { startRtmpServer, type RtmpServer, type RtmpServerOptions } from "./server.ts";

/** How often the certificate files are looked at: a renewal (Let's Encrypt's, weeks before expiry) is taken up within it. */
export const CERTIFICATE_CHECK_MS = 60_000;

/** What identifies a file's contents without reading it: a renewal replaces the file (or its symlink's target). */
function signature(path: string): string {
  const stat = statSync(path);
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/**
 * Takes up a renewed RTMPS certificate without a restart: the certificate and key files are looked at every
 * minute, and once either changed the pair is read and put in place for new connections (the publisher
 * already connected keeps its session). A pair TLS does not accept together — a renewal caught half-written,
 * a key that is not the certificate's — is refused with a warning and the certificate in use kept; the
 * next change is tried again.
 */
export class CertificateWatch {
  private seen: string;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly files: { cert: string; key: string },
    private readonly apply: (pair: { cert: Uint8Array; key: Uint8Array }) => void,
    private readonly log: Logger,
    everyMs = CERTIFICATE_CHECK_MS,
  ) {
    this.seen = this.current() ?? "";
    this.timer = setInterval(() => this.check(), everyMs);
    this.timer.unref?.();
  }

  private current(): string | null {
    try {
      return `${signature(this.files.cert)} ${signature(this.files.key)}`;
    } catch {
      return null;
    }
  }

  /** Looks at the files once; true when a new certificate was put in place. */
  check(): boolean {
    const now = this.current();
    if (now === null) {
      if (this.seen !== "missing") this.log.warn(`rtmps: ${this.files.cert} or ${this.files.key} cannot be read; the certificate in use is kept`);
      this.seen = "missing";
      return false;
    }
    if (now === this.seen) return false;
    this.seen = now;
    try {
      this.apply({ cert: readFileSync(this.files.cert), key: readFileSync(this.files.key) });
    } catch (error) {
      this.log.warn(`rtmps: the changed certificate was not taken up (${(error as Error).message}); the certificate in use is kept`);
      return false;
    }
    this.log.info(`rtmps: certificate reloaded from ${this.files.cert}`);
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** An RTMPS listener with the certificate and key read from these files, and read again whenever they change. */
export async function startRtmpsServer(options: Omit<RtmpServerOptions, "tls">, files: { cert: string; key: string }, everyMs = CERTIFICATE_CHECK_MS): Promise<RtmpServer> {
  const server = await startRtmpServer({ ...options, tls: { cert: readFileSync(files.cert), key: readFileSync(files.key) } });
  const watch = new CertificateWatch(files, (pair) => server.setCertificate(pair), options.logger, everyMs);
  return {
    ...server,
    close: () => {
      watch.stop();
      return server.close();
    },
  };
}
