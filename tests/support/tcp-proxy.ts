import { createConnection, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/** One connection through the proxy: its two sockets, and what each sent while it was frozen. */
interface Pair {
  client: Socket;
  upstream: Socket;
  frozen: boolean;
  /** Bytes held while frozen, each toward the socket named, delivered in order on thaw. */
  held: { to: Socket; data: Buffer }[];
}

/**
 * A TCP relay in front of a server, to take it away from the app and give it back: `cut()` drops every
 * connection through it and stops accepting (the app sees its server gone, new connections refused),
 * `restore()` listens again on the same port. `freeze()` is the server or the network gone silent
 * instead: connections stay open and nothing gets through either way (held, as TCP would retransmit it,
 * and delivered on `thaw()`); new connections are accepted and frozen too, or — `freeze({ newOnes: "through" })`,
 * a network that lost only the connections already open — go through.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<Pair>();
  private freezeNew = false;
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
      const pair: Pair = { client, upstream, frozen: this.freezeNew, held: [] };
      this.pairs.add(pair);
      const relay = (from: Socket, to: Socket) =>
        from.on("data", (data: Buffer) => {
          if (pair.frozen) pair.held.push({ to, data });
          else to.write(data);
        });
      relay(client, upstream);
      relay(upstream, client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
        this.pairs.delete(pair);
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

  /** Nothing gets through any more, but every connection stays open (see the class). */
  freeze(options: { newOnes?: "frozen" | "through" } = {}): void {
    this.freezeNew = (options.newOnes ?? "frozen") === "frozen";
    for (const pair of this.pairs) pair.frozen = true;
  }

  /** Through again: what was held is delivered, in order. */
  thaw(): void {
    this.freezeNew = false;
    for (const pair of this.pairs) {
      pair.frozen = false;
      for (const { to, data } of pair.held.splice(0)) if (!to.destroyed) to.write(data);
    }
  }

  /** Connections open through it now (each counted once, not with its upstream). */
  get connections(): number {
    return this.sockets.size / 2;
  }

  close(): Promise<void> {
    return this.cut();
  }
}
