import type { RedisClient } from "bun";
import type { Held, SocketCensus } from "./cluster.ts";
import { CENSUS_SCRIPT, HELD_SCRIPT, HOLD_SCRIPT } from "./lua.ts";
import type { RedisLink } from "./redis-link.ts";
import { CENSUS_TTL_MS, HEARD_WITHIN_MS, LIMIT_TIMEOUT_MS, within } from "./redis-timing.ts";

/**
 * The sockets each instance holds, in Redis: every instance keeps its own census there and reads the
 * censuses of the instances it has heard from lately.
 */
export class RedisSocketCensus implements SocketCensus {
  /** When each other instance was last heard from. */
  private readonly heard = new Map<string, number>();
  /** This instance's sockets per census field ('p:' person, 'a:' address), as Redis should have them. */
  private readonly census = new Map<string, number>();
  /** The census in Redis: a hash that expires unless this instance keeps renewing it, so a dead instance's sockets stop counting within seconds. */
  private readonly key: string;

  constructor(
    private readonly commands: RedisLink,
    private readonly namespace: string,
    instance: string,
  ) {
    this.key = this.keyOf(instance);
  }

  /** Another instance was heard from: its sockets count for a while. */
  heardFrom(instance: string): void {
    this.heard.set(instance, Date.now());
  }

  holding(person: string, address: string, change: 1 | -1): void {
    const fields = [`p:${person}`, `a:${address}`];
    const heldBefore = this.census.size > 0;
    for (const field of fields) {
      const count = (this.census.get(field) ?? 0) + change;
      if (count > 0) this.census.set(field, count);
      else this.census.delete(field);
    }
    const client = this.commands.client;
    if (!client) return;
    void client.send("EVAL", [HOLD_SCRIPT, "1", this.key, String(change), heldBefore ? "1" : "0", ...fields]).then(
      (applied) => {
        if (applied === 0) void this.write();
      },
      () => {},
    );
  }

  async heldElsewhere(person: string, address: string): Promise<Held> {
    const client = this.commands.client;
    const now = Date.now();
    const others = [...this.heard].filter(([, at]) => now - at <= HEARD_WITHIN_MS).map(([name]) => this.keyOf(name));
    if (!client || others.length === 0) return { person: 0, address: 0 };
    try {
      const [p, a] = (await within(client.send("EVAL", [HELD_SCRIPT, String(others.length), ...others, `p:${person}`, `a:${address}`]), LIMIT_TIMEOUT_MS)) as [number, number];
      return { person: p, address: a };
    } catch {
      return { person: 0, address: 0 };
    }
  }

  /** Writes this instance's census anew: after Redis was away (it may have restarted empty) or the hash expired (the instance was frozen). */
  async write(): Promise<void> {
    const client = this.commands.client;
    if (!client) return;
    const pairs = [...this.census].flatMap(([field, count]) => [field, String(count)]);
    await client.send("EVAL", [CENSUS_SCRIPT, "1", this.key, ...pairs]).catch(() => {});
  }

  /** Keeps the census alive; if it had gone, it is written anew. */
  async renew(client: RedisClient): Promise<void> {
    if (this.census.size === 0) return;
    if ((await client.send("PEXPIRE", [this.key, String(CENSUS_TTL_MS)])) === 0) await this.write();
  }

  /** This instance's sockets stop counting at once rather than when the census runs out. */
  async drop(): Promise<void> {
    await this.commands.client?.del(this.key).catch(() => {});
  }

  private keyOf(instance: string): string {
    return `${this.namespace}:sockets:${instance}`;
  }
}
