import { chatBatchFrame } from "../../contracts/chat-batch.ts";
import type { ChatMessage, ServerEvent } from "../../contracts/chat.ts";
import type { NewMessage, Stored } from "./messages.ts";

/** When chat lines are held and sent several to a frame. */
export interface ChatBatching {
  /** The longest a line is held while chat is busy; 0 sends every line at once. */
  windowMs: number;
  /** Chat lines per second from which the chat counts as busy. */
  busyPerSecond: number;
}

export const DEFAULT_CHAT_BATCHING: ChatBatching = { windowMs: 100, busyPerSecond: 30 };

/** Stores new lines, in order, as few writes as it can; one result per line, in the same order. */
export type CommitLines = (drafts: NewMessage[]) => Promise<Stored[]>;

type Item =
  /** A line already stored (another instance's). `batched`: held by a busy chat's window, so it may share a frame. */
  | { kind: "line"; line: ChatMessage; batched: boolean }
  /** A line sent here, stored when it goes out: the sender hears back once it has gone out, or why not. */
  | { kind: "draft"; draft: NewMessage; batched: boolean; done: (line: ChatMessage | null) => void; failed: (error: unknown) => void; result?: Stored }
  | { kind: "event"; frame: string };

const noStore: CommitLines = () => Promise.reject(new Error("this fan-out stores no lines"));

/**
 * The broadcast side of the hub, in order. Most of a busy chat's cost is the kernel's, once per frame per
 * viewer, so while lines arrive at `busyPerSecond` or more they are held for up to `windowMs` and go out
 * as one `chat_batch` frame; a quieter chat sends each line at once, as a `chat` frame. Any other event
 * first sends what is held, so deletes, bans, donations and counts keep their place after the lines.
 *
 * A line sent here is stored when it goes out, together with the others of its window: one transaction
 * a window rather than one a line. Nothing goes out while such a write is under way; what comes in
 * meanwhile waits behind it, in order.
 */
export class ChatFanout {
  private queue: Item[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Lines of the window being written; everything after them waits. */
  private writing: Promise<void> | null = null;
  /** Arrival times of the last `busyPerSecond` lines (a ring): busy when the oldest is under a second old. */
  private readonly arrivals: Float64Array;
  private next = 0;

  constructor(
    private readonly publish: (frame: string) => void,
    private readonly batching: ChatBatching = DEFAULT_CHAT_BATCHING,
    private readonly now: () => number = () => performance.now(),
    private readonly commit: CommitLines = noStore,
  ) {
    this.arrivals = new Float64Array(Math.max(1, batching.busyPerSecond)).fill(-Infinity);
  }

  /** A line stored elsewhere, for everyone. */
  line(line: ChatMessage): void {
    const batched = this.batches(this.arrive());
    this.queue.push({ kind: "line", line, batched });
    this.hold(batched);
  }

  /**
   * A new line sent here, for everyone: stored, then sent. Resolves to the stored line once it has gone
   * out, or to null when it was dropped first (its author kicked or banned); rejects when it could not be stored.
   */
  submit(draft: NewMessage): Promise<ChatMessage | null> {
    const batched = this.batches(this.arrive());
    const { promise, resolve, reject } = Promise.withResolvers<ChatMessage | null>();
    this.queue.push({ kind: "draft", draft, batched, done: resolve, failed: reject });
    this.hold(batched);
    return promise;
  }

  /** Any other event for everyone: after the lines held before it. */
  event(event: ServerEvent): void {
    this.queue.push({ kind: "event", frame: JSON.stringify(event) });
    this.flush();
  }

  /** Drops the lines of that name not yet stored (kicked or banned): they never go out. */
  drop(username: string): void {
    const name = username.toLowerCase();
    this.queue = this.queue.filter((item) => {
      if (item.kind !== "draft" || item.draft.username.toLowerCase() !== name) return true;
      item.done(null);
      return false;
    });
  }

  /** Stored lines held but not yet sent; a socket that joins now gets them in the batch, not in its history. */
  held(): ChatMessage[] {
    const lines: ChatMessage[] = [];
    for (const item of this.queue) if (item.kind === "line") lines.push(item.line);
    return lines;
  }

  /** Sends what is held now (or as soon as the write under way is done). */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.send();
  }

  /** Resolves once nothing is being written and nothing waits (after a flush: at shutdown). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Notes an arrival; true when the chat is busy. */
  private arrive(): boolean {
    const at = this.now();
    const oldest = this.arrivals[this.next]!;
    this.arrivals[this.next] = at;
    this.next = (this.next + 1) % this.arrivals.length;
    return at - oldest < 1000;
  }

  /** Whether a line arriving now is held for a window: the chat is busy, or a window is already open. */
  private batches(busy: boolean): boolean {
    return this.timer !== null || (busy && this.batching.windowMs > 0);
  }

  /** A line queued: sent at once in a quiet chat (or once the write under way is done), held until the window ends in a busy one. */
  private hold(batched: boolean): void {
    if (this.timer !== null) return;
    if (batched) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.send();
      }, this.batching.windowMs);
      return;
    }
    this.send();
  }

  private send(): void {
    if (this.writing || this.queue.length === 0) return;
    const items = this.queue;
    this.queue = [];
    const drafts = items.filter((item) => item.kind === "draft");
    if (drafts.length === 0) {
      this.publishAll(items);
      return;
    }
    this.writing = this.commit(drafts.map((d) => d.draft))
      .then(
        (results) => drafts.forEach((d, i) => (d.result = results[i] ?? { error: new Error("line not stored") })),
        (error: unknown) => drafts.forEach((d) => (d.result = { error })),
      )
      .then(() => {
        this.writing = null;
        this.publishAll(items);
        // What came in meanwhile: an event goes now; lines wait for their window, if one is open.
        if (this.timer === null || this.queue.some((item) => item.kind === "event")) this.flush();
      });
  }

  /**
   * Publishes in the log's order (see inLogOrder): consecutive lines held by a window as one frame, any
   * other line (a quiet chat's, queued only behind a write) and each event as a frame of its own; then
   * tells the senders.
   */
  private publishAll(queued: Item[]): void {
    const items = inLogOrder(queued);
    let lines: ChatMessage[] = [];
    const sendLines = () => {
      if (lines.length === 0) return;
      this.publish(lines.length === 1 ? JSON.stringify({ type: "chat", message: lines[0]! } satisfies ServerEvent) : chatBatchFrame(lines));
      lines = [];
    };
    for (const item of items) {
      if (item.kind === "event") {
        sendLines();
        this.publish(item.frame);
        continue;
      }
      const line = item.kind === "line" ? item.line : item.result && "line" in item.result ? item.result.line : null;
      if (!line) continue;
      if (!item.batched) sendLines();
      lines.push(line);
      if (!item.batched) sendLines();
    }
    sendLines();
    for (const item of items) {
      if (item.kind !== "draft" || !item.result) continue;
      if ("line" in item.result) item.done(item.result.line);
      else item.failed(item.result.error);
    }
  }
}

/**
 * What was queued for one send, in the order of the chat log. A line stored elsewhere (another instance's,
 * a donation's) was stored before this send's own lines, which are stored when it starts, so up to the
 * next event it goes first: every instance's viewers then see the lines in one order, the one the history
 * shows. Events keep their place, with the lines queued before them sent before them.
 */
function inLogOrder(items: Item[]): Item[] {
  if (!items.some((item) => item.kind === "draft")) return items;
  const ordered: Item[] = [];
  let drafts: Item[] = [];
  for (const item of items) {
    if (item.kind === "draft") drafts.push(item);
    else if (item.kind === "line") ordered.push(item);
    else {
      ordered.push(...drafts, item);
      drafts = [];
    }
  }
  ordered.push(...drafts);
  return ordered;
}
