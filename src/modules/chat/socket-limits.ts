import type { Cluster } from "../../cluster/cluster.ts";
import { tooManyRequests } from "../../lib/errors.ts";

export const MAX_SOCKETS_PER_PERSON = 5;
/** Open sockets one address may hold: generous for a household or a venue behind one NAT, not for a flood. */
export const MAX_SOCKETS_PER_IP = 100;
/** Frames a socket may send per second before the excess is dropped unread. */
const MAX_FRAMES_PER_SECOND = 40;

/** A socket's frames in the second under way. */
export interface FrameBudget {
  framesInWindow: number;
  windowStartedAt: number;
}

/**
 * The open sockets each person and each address holds (here, and in a cluster on every instance), so that
 * no one opens a flood of them; and each socket's frames a second.
 */
export class SocketLimits {
  private readonly perPerson = new Map<string, number>();
  private readonly perIp = new Map<string, number>();

  constructor(private readonly cluster: Cluster) {}

  /** Refuses one socket too many for the person (by their key) or for their address. */
  async check(person: string, ip: string): Promise<void> {
    // This instance's own sockets first; in a cluster, those the others hold count too.
    let held = this.perPerson.get(person) ?? 0;
    let address = this.perIp.get(ip) ?? 0;
    if (held < MAX_SOCKETS_PER_PERSON && address < MAX_SOCKETS_PER_IP && this.cluster.clustered) {
      const elsewhere = await this.cluster.heldElsewhere(person, ip);
      held += elsewhere.person;
      address += elsewhere.address;
    }
    if (held >= MAX_SOCKETS_PER_PERSON) {
      throw tooManyRequests("Too many open connections. Close another tab and try again.", 5);
    }
    if (address >= MAX_SOCKETS_PER_IP) {
      throw tooManyRequests("Too many connections from your network. Please try again later.", 30);
    }
  }

  opened(person: string, ip: string): void {
    this.perPerson.set(person, (this.perPerson.get(person) ?? 0) + 1);
    this.perIp.set(ip, (this.perIp.get(ip) ?? 0) + 1);
    this.cluster.holding(person, ip, 1);
  }

  closed(person: string, ip: string): void {
    const left = (this.perPerson.get(person) ?? 1) - 1;
    if (left > 0) this.perPerson.set(person, left);
    else this.perPerson.delete(person);
    const fromIp = (this.perIp.get(ip) ?? 1) - 1;
    if (fromIp > 0) this.perIp.set(ip, fromIp);
    else this.perIp.delete(ip);
    this.cluster.holding(person, ip, -1);
  }

  /** Distinct people with a socket open here. */
  people(): number {
    return this.perPerson.size;
  }

  /** Distinct addresses with a socket open here. */
  addresses(): number {
    return this.perIp.size;
  }

  /** Counts a frame against the socket's budget; false means drop it unread. */
  takeFrame(socket: FrameBudget): boolean {
    const now = Date.now();
    if (now - socket.windowStartedAt >= 1000) {
      socket.windowStartedAt = now;
      socket.framesInWindow = 0;
    }
    return ++socket.framesInWindow <= MAX_FRAMES_PER_SECOND;
  }

  /** At shutdown, once every socket is closed. */
  clear(): void {
    this.perPerson.clear();
    this.perIp.clear();
  }
}
