import { createConnection, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/**
 * A TCP relay in front of a server, to take it away from the app and give it back: `cut()` drops every
 * connection through it and stops accepting (the app sees its server gone, new connections refused),
 * `restore()` listens again on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    readonly targetHost: string,
    readonly targetPort: number,
  ) {}

  /** Listens on a free port (the first time) or on the one it had. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      this.sockets.add(client);
      this.sockets.add(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      for (const socket of [client, upstream]) {
        socket.on("error", drop);
        socket.on("close", drop);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Every connection through it dropped at once, and no new one accepted. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  restore(): Promise<void> {
    return this.listen();
  }

  /** Connections open through it now (each counted once, not with its upstream). */
  get connections(): number {
    return this.sockets.size / 2;
  }

  close(): Promise<void> {
    return this.cut();
  }
}
