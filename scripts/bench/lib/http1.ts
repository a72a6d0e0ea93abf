/**
 * A lean HTTP/1.1 client for load generators: one keep-alive connection per simulated viewer (as each
 * phone has its own), one request at a time, bodies counted rather than copied unless their text is asked
 * for. `fetch` shares one pool across every viewer of a process and builds a Response, Headers and a body
 * buffer per answer: with 500 viewers fetching three parts a second that is most of the load generator's
 * CPU, taken from the same two cores as the server measured. Only what the benchmark servers send is read:
 * a status line, headers and a Content-Length body.
 */
import type { Socket } from "bun";

export interface Http1Answer {
  status: number;
  /** From the request written to the first byte of the answer, in ms. */
  firstByteMs: number;
  /** Body bytes. */
  size: number;
  /** The body as text, when asked for. */
  text: string | null;
}

interface Pending {
  wantText: boolean;
  sentAt: number;
  firstByteAt: number;
  head: Uint8Array | null;
  status: number;
  remaining: number;
  size: number;
  chunks: Uint8Array[];
  done: (answer: Http1Answer) => void;
  failed: (error: Error) => void;
}

const HEAD_END = Buffer.from("\r\n\r\n");
const MAX_HEAD_BYTES = 16 * 1024;
const decoder = new TextDecoder();

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export class Http1Connection {
  private socket: Socket<undefined> | null = null;
  private connecting: Promise<Socket<undefined>> | null = null;
  private pending: Pending | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  static for(url: string): Http1Connection {
    const { hostname, port } = new URL(url);
    return new Http1Connection(hostname, Number(port));
  }

  /** GET `path` (with its query) with these header lines; rejects when the connection fails or closes first. */
  async get(path: string, headers: string, wantText: boolean): Promise<Http1Answer> {
    const socket = this.socket ?? (await this.connect());
    return new Promise((done, failed) => {
      this.pending = { wantText, sentAt: performance.now(), firstByteAt: 0, head: null, status: 0, remaining: -1, size: 0, chunks: [], done, failed };
      socket.write(`GET ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n${headers}\r\n`);
    });
  }

  close(): void {
    this.socket?.end();
    this.socket = null;
  }

  private connect(): Promise<Socket<undefined>> {
    this.connecting ??= Bun.connect({
      hostname: this.host,
      port: this.port,
      socket: {
        data: (_socket, data) => this.receive(data),
        close: () => this.lost(new Error("connection closed")),
        error: (_socket, error) => this.lost(error),
      },
    }).then(
      (socket) => {
        this.socket = socket;
        this.connecting = null;
        return socket;
      },
      (error: unknown) => {
        this.connecting = null;
        throw error;
      },
    );
    return this.connecting;
  }

  private lost(error: Error): void {
    this.socket = null;
    const pending = this.pending;
    this.pending = null;
    pending?.failed(error);
  }

  private receive(data: Uint8Array): void {
    const p = this.pending;
    if (!p) return;
    if (p.firstByteAt === 0) p.firstByteAt = performance.now();
    let body = data;
    if (p.remaining < 0) {
      const head = p.head ? concat(p.head, data) : data;
      const end = Buffer.from(head.buffer, head.byteOffset, head.byteLength).indexOf(HEAD_END);
      if (end === -1) {
        if (head.length > MAX_HEAD_BYTES) return this.fail(new Error("answer head too large"));
        p.head = head.slice();
        return;
      }
      const text = decoder.decode(head.subarray(0, end));
      p.status = Number(text.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
      if (!length) return this.fail(new Error("answer without a Content-Length"));
      p.remaining = Number(length[1]);
      body = head.subarray(end + 4);
    }
    const take = Math.min(body.length, p.remaining);
    p.size += take;
    p.remaining -= take;
    if (p.wantText && take > 0) p.chunks.push(body.slice(0, take));
    if (p.remaining > 0) return;
    this.pending = null;
    const text = p.wantText ? decoder.decode(p.chunks.length === 1 ? p.chunks[0] : p.chunks.reduce(concat, new Uint8Array(0))) : null;
    p.done({ status: p.status, firstByteMs: p.firstByteAt - p.sentAt, size: p.size, text });
  }

  private fail(error: Error): void {
    this.close();
    this.lost(error);
  }
}
