import type { Config } from "../config.ts";

const EVERY_ADDRESS = ["0.0.0.0", "::", ""];

/** Where a server listening on `host` and `port` is reached, as an address to click (every address: localhost). */
export function listenUrl(host: string, port: number): string {
  const name = EVERY_ADDRESS.includes(host) ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The site's address in everything sent off the site — e-mail links above all: --public-url, else the
 * address this server listens on (e.g. http://localhost:3000). Never a request's Host header: anyone can
 * send one, and a lost-code e-mail would then carry the buyer's real code with a link to their site.
 * Live payments refuse to start without --public-url (config.ts), so buyers' mail has the real address.
 */
export class SiteAddress {
  private port: number;

  constructor(private readonly config: Pick<Config, "publicUrl" | "host" | "port">) {
    this.port = config.port;
  }

  /** The port the server bound (with port 0 the system picks one). */
  listening(port: number): void {
    this.port = port;
  }

  /** The port this server listens on (the one bound, once it is). */
  get boundPort(): number {
    return this.port;
  }

  url(): string {
    return this.config.publicUrl ?? listenUrl(this.config.host, this.port);
  }
}
