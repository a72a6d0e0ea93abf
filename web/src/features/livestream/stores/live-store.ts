import { batch, computed, signal } from "@preact/signals-react";
import type { ChatMessage, ServerEvent, StreamSettingsUpdate } from "@contracts/chat";
import { CHAT_HISTORY_LIMIT } from "@contracts/chat-limits";
import type { ConnectionStatus } from "@/lib/chat-socket";

/** The chat shows the newest 7 lines; it keeps the last 100. */
export const VISIBLE_MESSAGES = 7;
export const HEART_LIFETIME_MS = 2500;
export const DONATION_HEART_INTERVAL_MS = 200;
/** Hearts floated at once for other viewers' hearts, however many arrived in one count. */
const MAX_HEARTS_PER_COUNT = 5;

/** Hearts a donation sets off: floor(pounds / 2), at least 3 and at most 10. */
export function donationHeartCount(pounds: number): number {
  return Math.min(10, Math.max(3, Math.floor(pounds / 2)));
}

export interface FloatingHeart {
  id: number;
  /** Where it starts across the layer, 0–1. */
  x: number;
  /** Sideways sway in px. */
  sway: number;
  scale: number;
}

/** Why and until when (epoch ms, this browser's clock) this viewer must wait before chatting. */
export interface ChatCooldown {
  reason: "slow_mode" | "timeout";
  until: number;
}

export interface DonationProgress {
  /** pence */
  current: number;
  /** pence */
  goal: number;
}

interface Timers {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const defaultTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The live state of the stream screen in signals, so a heart or a count repaints only the part that
 * shows it. `apply` folds in each server event.
 */
export class LiveStore {
  readonly messages = signal<ChatMessage[]>([]);
  readonly visibleMessages = computed(() => this.messages.value.slice(-VISIBLE_MESSAGES));
  readonly pinned = computed(() => this.messages.value.findLast((m) => m.isPinned) ?? null);
  readonly viewerCount = signal<number | null>(null);
  readonly heartCount = signal<number | null>(null);
  readonly donation = signal<DonationProgress | null>(null);
  readonly settings = signal<StreamSettingsUpdate | null>(null);
  readonly connection = signal<ConnectionStatus>({ state: "idle", attempt: 0, removedWith: null });
  readonly isModerator = signal(false);
  /** The name the server knows this viewer by (from auth_ok). */
  readonly username = signal<string | null>(null);
  readonly hearts = signal<FloatingHeart[]>([]);
  /** Slow mode's interval in seconds (0 = off). */
  readonly slowModeSeconds = signal(0);
  readonly cooldown = signal<ChatCooldown | null>(null);

  private nextHeartId = 1;
  private nextLocalLine = 1;
  /** Own hearts sent but not yet in a server count, so they are not floated twice. */
  private ownHeartsPending = 0;
  /** The first count after a (re)connect is a snapshot, not new hearts. */
  private countIsSnapshot = true;
  private readonly timers = new Set<unknown>();

  constructor(
    private readonly random: () => number = Math.random,
    private readonly clock: Timers = defaultTimers,
    private readonly now: () => number = Date.now,
  ) {}

  apply(event: ServerEvent): void {
    switch (event.type) {
      case "chatHistory":
        this.messages.value = event.messages.slice(-CHAT_HISTORY_LIMIT);
        return;
      case "chat":
        this.append([event.message]);
        return;
      case "chat_batch":
        this.append(event.messages);
        return;
      case "message_updated":
        this.messages.value = this.messages.value.map((m) => (m.id === event.message.id ? event.message : m));
        return;
      case "message_deleted":
        this.messages.value = this.messages.value.filter((m) => m.id !== event.messageId);
        return;
      case "user_kicked":
      case "user_banned": {
        const name = event.username.toLowerCase();
        this.messages.value = this.messages.value.filter((m) => m.type === "system" || m.username.toLowerCase() !== name);
        return;
      }
      case "system_message":
        this.addNotice(event.message);
        return;
      case "error":
        this.addNotice(event.message);
        return;
      case "hearts":
        this.updateHeartCount(event.count);
        return;
      case "viewer_count":
        this.viewerCount.value = event.count;
        return;
      case "stats":
        batch(() => {
          this.updateHeartCount(event.stats.heartCount);
          this.viewerCount.value = event.stats.viewerCount;
        });
        return;
      case "donation_update":
        this.donation.value = { current: event.current, goal: event.goal };
        return;
      case "settings_update":
        this.settings.value = event.settings;
        return;
      case "auth_ok":
        batch(() => {
          this.username.value = event.username;
          // The server may make a viewer a moderator, or take it back, while they watch.
          this.isModerator.value = event.isModerator;
        });
        return;
      case "slow_mode":
        batch(() => {
          this.slowModeSeconds.value = event.seconds;
          if (event.seconds === 0 && this.cooldown.value?.reason === "slow_mode") this.cooldown.value = null;
        });
        return;
      case "chat_cooldown":
        this.cooldown.value = event.seconds > 0 ? { reason: event.reason, until: this.now() + event.seconds * 1000 } : null;
        return;
    }
  }

  setConnection(status: ConnectionStatus): void {
    if (status.state === "open") this.countIsSnapshot = true;
    this.connection.value = status;
  }

  /** A line only this viewer sees (notices, refusals), shown like a system line. */
  addNotice(text: string): void {
    this.append([{ id: `local-${this.nextLocalLine++}`, username: "", text, timestamp: new Date().toISOString(), type: "system", isPinned: false }]);
  }

  /** This viewer's own heart: floated at once, and remembered so the server's count does not float it again. */
  sentHeart(): void {
    this.ownHeartsPending++;
    this.floatHeart();
  }

  floatHeart(): void {
    const heart: FloatingHeart = {
      id: this.nextHeartId++,
      x: 0.15 + this.random() * 0.7,
      sway: Math.round((this.random() - 0.5) * 60),
      scale: 0.8 + this.random() * 0.5,
    };
    this.hearts.value = [...this.hearts.value, heart];
    this.later(HEART_LIFETIME_MS, () => {
      this.hearts.value = this.hearts.value.filter((h) => h.id !== heart.id);
    });
  }

  floatDonationHearts(pounds: number): void {
    const count = donationHeartCount(pounds);
    for (let i = 0; i < count; i++) {
      if (i === 0) this.floatHeart();
      else this.later(i * DONATION_HEART_INTERVAL_MS, () => this.floatHeart());
    }
  }

  dispose(): void {
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
  }

  /** New lines in one update (a batch renders once, not once per line); donations float their hearts. */
  private append(lines: ChatMessage[]): void {
    const next = [...this.messages.value, ...lines];
    this.messages.value = next.length > CHAT_HISTORY_LIMIT ? next.slice(-CHAT_HISTORY_LIMIT) : next;
    for (const line of lines) if (line.type === "donation") this.floatDonationHearts(line.donation ?? 0);
  }

  private updateHeartCount(count: number): void {
    const previous = this.heartCount.value;
    this.heartCount.value = count;
    if (this.countIsSnapshot || previous === null) {
      this.countIsSnapshot = false;
      return;
    }
    const added = Math.max(0, count - previous);
    const fromOthers = Math.max(0, added - this.ownHeartsPending);
    this.ownHeartsPending = Math.max(0, this.ownHeartsPending - added);
    for (let i = 0; i < Math.min(fromOthers, MAX_HEARTS_PER_COUNT); i++) {
      if (i === 0) this.floatHeart();
      else this.later(i * DONATION_HEART_INTERVAL_MS, () => this.floatHeart());
    }
  }

  private later(ms: number, run: () => void): void {
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}
