import { createConnection, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/**
 * A TCP load balancer in front of several instances, as Caddy or nginx would be: each new connection goes
 * to the next instance in turn, and to the one after when an instance refuses it (dead or gone).
 */
export class Balancer {
  private server: Server | null = null;
  private next = 0;
  private readonly open = new Set<Socket>();
  port = 0;

  constructor(private readonly backends: number[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = createServer((client) => {
      this.open.add(client);
      client.on("close", () => this.open.delete(client));
      client.pause();
      this.connect(client, 0);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  private connect(client: Socket, tried: number): void {
    if (tried >= this.backends.length) {
      client.destroy();
      return;
    }
    const port = this.backends[this.next++ % this.backends.length]!;
    const upstream = createConnection(port, "127.0.0.1");
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.on("error", () => {
      if (!connected) this.connect(client, tried + 1);
      else client.destroy();
    });
    upstream.on("close", () => {
      if (connected) client.destroy();
    });
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const client of this.open) client.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
