import type { ChatMessage, ServerEvent } from "../../contracts/chat.ts";

/** When chat lines are held and sent several to a frame. */
export interface ChatBatching {
  /** The longest a line is held while chat is busy; 0 sends every line at once. */
  windowMs: number;
  /** Chat lines per second from which the chat counts as busy. */
  busyPerSecond: number;
}

export const DEFAULT_CHAT_BATCHING: ChatBatching = { windowMs: 100, busyPerSecond: 30 };

/**
 * The broadcast side of the hub, in order. Most of a busy chat's cost is the kernel's, once per frame per
 * viewer, so while lines arrive at `busyPerSecond` or more they are held for up to `windowMs` and go out
 * as one `chat_batch` frame; a quieter chat sends each line at once, as a `chat` frame. Any other event
 * first sends what is held, so deletes, bans, donations and counts keep their place after the lines.
 */
export class ChatFanout {
  private pending: ChatMessage[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Arrival times of the last `busyPerSecond` lines (a ring): busy when the oldest is under a second old. */
  private readonly arrivals: Float64Array;
  private next = 0;

  constructor(
    private readonly publish: (frame: string) => void,
    private readonly batching: ChatBatching = DEFAULT_CHAT_BATCHING,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.arrivals = new Float64Array(Math.max(1, batching.busyPerSecond)).fill(-Infinity);
  }

  /** A new chat line for everyone. */
  line(message: ChatMessage): void {
    const at = this.now();
    const oldest = this.arrivals[this.next]!;
    this.arrivals[this.next] = at;
    this.next = (this.next + 1) % this.arrivals.length;
    if (this.timer !== null) {
      this.pending.push(message);
      return;
    }
    if (this.batching.windowMs > 0 && at - oldest < 1000) {
      this.pending.push(message);
      this.timer = setTimeout(() => this.flush(), this.batching.windowMs);
      return;
    }
    this.publish(JSON.stringify({ type: "chat", message } satisfies ServerEvent));
  }

  /** Any other event for everyone: after the lines held before it. */
  event(event: ServerEvent): void {
    this.flush();
    this.publish(JSON.stringify(event));
  }

  /** Lines held but not yet sent; a socket that joins now gets them in the batch, not in its history. */
  held(): readonly ChatMessage[] {
    return this.pending;
  }

  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const messages = this.pending;
    this.pending = [];
    this.publish(
      JSON.stringify(messages.length === 1 ? ({ type: "chat", message: messages[0]! } satisfies ServerEvent) : ({ type: "chat_batch", messages } satisfies ServerEvent)),
    );
  }
}
