import type { Store } from "../../db/store.ts";
import { BLOCKED_LINK_NOTICE, BLOCKED_WORD_NOTICE, describeDuration, SLOW_MODE_CHOICES } from "../../contracts/chat-limits.ts";
import type { ChatRules } from "../../contracts/moderation.ts";
import { compileChatFilter, type ChatFilter } from "./filters.ts";
import { ModerationLog } from "./moderation-log.ts";
import { TimeoutList, type TimeoutTarget } from "./timeouts.ts";

/** The sender as the rules see them. */
export interface Sender extends TimeoutTarget {
  /** One per person (slow mode counts per person, across their sockets). */
  key: string;
  isModerator: boolean;
}

export type Cooldown = { reason: "slow_mode" | "timeout"; seconds: number };

export type ChatRefusal = { accepted: false; notice: string; cooldown?: Cooldown };
export type ChatVerdict = { accepted: true; text: string } | ChatRefusal;

interface RulesRow {
  slow_mode_seconds: number;
  blocked_terms: string;
  filter_action: "block" | "mask";
  block_links: number;
}

/**
 * The chat's standing rules — timeouts, slow mode, word and link filters — and the moderation log.
 * The rules live in SQLite and are compiled once per change; a chat line is then screened in memory.
 */
export class ChatModeration {
  readonly log: ModerationLog;
  readonly timeouts: TimeoutList;
  private rules: ChatRules;
  private filter: ChatFilter;
  /** When each person last had a line accepted, for slow mode. */
  private readonly lastLineAt = new Map<string, number>();

  constructor(private readonly store: Store) {
    this.log = new ModerationLog(store);
    this.timeouts = new TimeoutList(store);
    this.rules = { slowModeSeconds: 0, blockedTerms: [], filterAction: "block", blockLinks: false };
    this.filter = compileChatFilter(this.rules);
  }

  /** Reads the rules and the running timeouts (at start, and when another instance changed them). */
  async load(): Promise<void> {
    this.rules = await this.readRules();
    this.filter = compileChatFilter(this.rules);
    await this.timeouts.reload();
  }

  getRules(): ChatRules {
    return this.rules;
  }

  slowModeSeconds(): number {
    return this.rules.slowModeSeconds;
  }

  /** Saves and applies new rules at once, logging what changed. Returns the rules as saved. */
  async saveRules(next: ChatRules, by: string): Promise<ChatRules> {
    const before = this.rules;
    await this.store.run(
      "UPDATE chat_rules SET slow_mode_seconds = ?, blocked_terms = ?, filter_action = ?, block_links = ?, updated_at = ? WHERE id = 1",
      next.slowModeSeconds,
      JSON.stringify(next.blockedTerms),
      next.filterAction,
      next.blockLinks ? 1 : 0,
      Date.now(),
    );
    this.rules = { ...next, blockedTerms: [...next.blockedTerms] };
    this.filter = compileChatFilter(this.rules);
    if (before.slowModeSeconds !== next.slowModeSeconds) await this.log.record({ action: "slow_mode", moderator: by, detail: slowModeDetail(next.slowModeSeconds) });
    const changes = describeRuleChanges(before, next);
    if (changes) await this.log.record({ action: "chat_rules", moderator: by, detail: changes });
    return this.rules;
  }

  async setSlowMode(seconds: number, by: string): Promise<void> {
    await this.saveRules({ ...this.rules, slowModeSeconds: seconds }, by);
  }

  /** Timed out, or too soon under slow mode: the refusal; null when the sender may send a line now. */
  holdBack(sender: Sender, now = Date.now()): ChatRefusal | null {
    const timedOut = this.timeouts.secondsLeft(sender);
    if (timedOut > 0) {
      return { accepted: false, notice: `You are timed out. You can chat again in ${describeDuration(timedOut)}.`, cooldown: { reason: "timeout", seconds: timedOut } };
    }
    const interval = this.rules.slowModeSeconds;
    if (interval > 0 && !sender.isModerator) {
      const wait = Math.ceil(((this.lastLineAt.get(sender.key) ?? 0) + interval * 1000 - now) / 1000);
      if (wait > 0) {
        return { accepted: false, notice: `Slow mode is on. You can send another message in ${describeDuration(wait)}.`, cooldown: { reason: "slow_mode", seconds: wait } };
      }
    }
    return null;
  }

  /** The word and link filters: the text to send (masked if need be) or the refusal, which is logged (in the background). */
  screen(sender: Sender, text: string): ChatVerdict {
    if (!this.filter.active) return { accepted: true, text };
    const result = this.filter.screen(text, sender.isModerator);
    if (result.kind === "ok") return { accepted: true, text: result.text };
    const link = result.kind === "link";
    void this.log
      .record({ action: "filtered", moderator: null, target: sender.username, messageText: text, detail: link ? "link" : `blocked term: ${result.term}` })
      .catch(() => {});
    return { accepted: false, notice: link ? BLOCKED_LINK_NOTICE : BLOCKED_WORD_NOTICE };
  }

  /** A line was accepted: slow mode starts counting; returns the cooldown to tell the sender, if any. */
  accepted(sender: Sender, now = Date.now()): Cooldown | null {
    const interval = this.rules.slowModeSeconds;
    if (interval === 0 || sender.isModerator) return null;
    if (this.lastLineAt.size > 50_000) this.forgetOldLines(now);
    this.lastLineAt.set(sender.key, now);
    return { reason: "slow_mode", seconds: interval };
  }

  private forgetOldLines(now: number): void {
    const longest = Math.max(...SLOW_MODE_CHOICES) * 1000;
    for (const [key, at] of this.lastLineAt) if (now - at > longest) this.lastLineAt.delete(key);
  }

  private async readRules(): Promise<ChatRules> {
    const row = await this.store.get<RulesRow>("SELECT slow_mode_seconds, blocked_terms, filter_action, block_links FROM chat_rules WHERE id = 1");
    if (!row) return { slowModeSeconds: 0, blockedTerms: [], filterAction: "block", blockLinks: false };
    return {
      slowModeSeconds: row.slow_mode_seconds,
      blockedTerms: JSON.parse(row.blocked_terms) as string[],
      filterAction: row.filter_action,
      blockLinks: row.block_links === 1,
    };
  }
}

export function slowModeDetail(seconds: number): string {
  return seconds === 0 ? "off" : `one message every ${describeDuration(seconds)}`;
}

/** "added 3 terms (a, b, c); removed 1 term (d); action mask; links blocked" — or "" when only slow mode changed. */
function describeRuleChanges(before: ChatRules, after: ChatRules): string {
  const had = new Set(before.blockedTerms.map((t) => t.toLowerCase()));
  const has = new Set(after.blockedTerms.map((t) => t.toLowerCase()));
  const added = after.blockedTerms.filter((t) => !had.has(t.toLowerCase()));
  const removed = before.blockedTerms.filter((t) => !has.has(t.toLowerCase()));
  const list = (terms: string[]) => `${terms.length} term${terms.length === 1 ? "" : "s"} (${terms.slice(0, 10).join(", ")}${terms.length > 10 ? ", …" : ""})`;
  const parts: string[] = [];
  if (added.length) parts.push(`added ${list(added)}`);
  if (removed.length) parts.push(`removed ${list(removed)}`);
  if (before.filterAction !== after.filterAction) parts.push(`action ${after.filterAction}`);
  if (before.blockLinks !== after.blockLinks) parts.push(after.blockLinks ? "links blocked" : "links allowed");
  return parts.join("; ");
}
