import type { ServerEvent } from "../../contracts/chat.ts";
import type { ChatFanout } from "./fanout.ts";
import type { ChatMessageStore } from "./messages.ts";

/** The `chatHistory` frame a joining socket gets, serialised once per change of the log (and of the lines held) rather than once per socket. */
export class HistoryFrame {
  private cached = { key: "", frame: "" };

  constructor(
    private readonly messages: ChatMessageStore,
    private readonly fanout: ChatFanout,
  ) {}

  /** The stored lines, less those still held for the next batch: the joining socket gets those in the batch, once. */
  frame(): string {
    const held = this.fanout.held();
    const key = `${this.messages.revision}:${held.length}`;
    if (this.cached.key !== key) {
      const heldIds = new Set(held.map((m) => m.id));
      const messages = this.messages.history().filter((m) => !heldIds.has(m.id));
      this.cached = { key, frame: JSON.stringify({ type: "chatHistory", messages } satisfies ServerEvent) };
    }
    return this.cached.frame;
  }
}
