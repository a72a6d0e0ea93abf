import { RedisClient } from "bun";

/** How long a first connection, or a reconnection attempt, may take. */
const CONNECT_TIMEOUT_MS = 2000;
/** Between reconnection attempts: doubling from the first to the last. */
const RETRY_FIRST_MS = 200;
const RETRY_LAST_MS = 2000;

/**
 * One connection to Redis that comes back by itself. Bun's client reconnects on its own but forgets its
 * subscriptions when it does, so a lost connection is dropped here and a new one made, with `ready` run on
 * it (subscribe, say) before it is used; until then `client` is null and commands fail at once rather than
 * queue up.
 */
export class RedisLink {
  private current: RedisClient | null = null;
  private retrying = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly url: string,
    /** Runs on each new connection before it is handed out; a throw counts as a failed attempt. */
    private readonly ready: (client: RedisClient) => Promise<void>,
    /** The link was lost (said once per loss); `up` follows when it is back. */
    private readonly events: { down(error: unknown): void; up(): void },
  ) {}

  /** The first connection; throws when Redis does not answer, so that start-up fails with a clear line. */
  async start(): Promise<void> {
    await this.open();
  }

  /** The live connection, or null while it is being made again. */
  get client(): RedisClient | null {
    const client = this.current;
    return client?.connected ? client : null;
  }

  /** Gives up the connection (after a health check saw it hang): a new one is made. */
  reset(error: unknown): void {
    const client = this.current;
    if (client) this.lost(client, error);
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.current;
    this.current = null;
    if (client) {
      client.onclose = null;
      client.close();
    }
  }

  private async open(): Promise<void> {
    const client = new RedisClient(this.url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: CONNECT_TIMEOUT_MS });
    try {
      await client.connect();
      await this.ready(client);
      if (!client.connected) throw new Error("Connection closed");
    } catch (error) {
      client.onclose = null;
      client.close();
      throw error;
    }
    if (this.stopped) {
      client.close();
      return;
    }
    client.onclose = (error) => this.lost(client, error);
    this.current = client;
  }

  private lost(client: RedisClient, error: unknown): void {
    if (this.current !== client) return;
    this.current = null;
    client.onclose = null;
    client.close();
    if (this.stopped) return;
    this.events.down(error);
    this.retry(RETRY_FIRST_MS);
  }

  private retry(delay: number): void {
    if (this.stopped || (this.retrying && this.retryTimer)) return;
    this.retrying = true;
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- every await is inside the try
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      if (this.stopped) return;
      try {
        await this.open();
        this.retrying = false;
        if (!this.stopped) this.events.up();
      } catch {
        this.retry(Math.min(delay * 2, RETRY_LAST_MS));
      }
    }, delay);
  }
}
