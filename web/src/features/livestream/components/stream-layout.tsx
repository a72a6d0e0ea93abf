import type { ReactNode } from "react";
import { Link } from "wouter";
import type { ChatMessage } from "@contracts/chat";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";
import { DEFAULT_CURRENCY, formatMoney } from "@contracts/money";

interface StreamLayoutProps {
  title: string;
  /** Shows the pulsing LIVE badge. */
  live?: boolean;
  /** At the end of the header bar (who is watching). */
  headerEnd?: ReactNode;
  /** The counts bar under the player: counts and player controls. */
  stats?: ReactNode;
  player: ReactNode;
  belowPlayer?: ReactNode;
  chat: ReactNode;
  /** Names the chat column: the live chat, or the replay's. */
  chatLabel?: string;
}

/**
 * The frame of the stream screen (no site shell). Phones: a slim header, the player, the counts bar, the
 * meter, then the chat filling the rest of the screen. Desktops: the player column left, the chat right.
 */
export function StreamLayout({ title, live = false, headerEnd, stats, player, belowPlayer, chat, chatLabel = "Live chat" }: StreamLayoutProps) {
  return (
    <div className="stream">
      <header className="stream-header">
        <Link href={paths.home} className="stream-brand">
          {BRAND}
        </Link>
        {live ? (
          <span className="stream-live">
            <span className="stream-live-dot" aria-hidden="true" />
            LIVE
          </span>
        ) : null}
        <h1 className="stream-title">{title}</h1>
        {headerEnd ? <div className="stream-header-end">{headerEnd}</div> : null}
      </header>
      <main className="stream-main">
        <section className="stream-stage" aria-label="Stream">
          {player}
        </section>
        {stats ? <div className="stream-stats">{stats}</div> : null}
        {belowPlayer}
      </main>
      <aside className="stream-chat" aria-label={chatLabel}>
        {chat}
      </aside>
    </div>
  );
}

export function StreamStat({ icon, label, value }: { icon: ReactNode; label: string; value: ReactNode }) {
  return (
    <span className="stream-stat">
      {icon}
      <span className="sr-only">{label}: </span>
      <span className="stream-stat-value">{value}</span>
    </span>
  );
}

/** The donation goal meter. Money in minor units of the event's currency. */
export function FearMeter({ current, goal, label = "FEAR METER", currency = DEFAULT_CURRENCY }: { current: number; goal: number; label?: string; currency?: string }) {
  const percent = goal > 0 ? Math.min(100, (current / goal) * 100) : 0;
  const reached = goal > 0 && current >= goal;
  return (
    <section className="stream-fear-meter" aria-labelledby="fear-meter-label">
      <div className="stream-fear-meter-head">
        <h2 id="fear-meter-label" className="stream-fear-meter-label">
          {label}
        </h2>
        {reached ? <span className="stream-fear-meter-reached">Goal reached</span> : null}
        <p className="stream-fear-meter-amount">
          <span className="stream-fear-meter-current">{formatMoney(current, currency)}</span>
          <span className="stream-fear-meter-goal"> / {formatMoney(goal, currency)} goal</span>
        </p>
      </div>
      <div
        className="stream-fear-meter-track"
        role="progressbar"
        aria-labelledby="fear-meter-label"
        aria-valuemin={0}
        aria-valuemax={goal / 100}
        aria-valuenow={Math.min(current, goal) / 100}
        aria-valuetext={`${formatMoney(current, currency)} of ${formatMoney(goal, currency)}`}
      >
        <div className="stream-fear-meter-fill" style={{ width: `${percent}%` }} />
      </div>
    </section>
  );
}

interface ChatPanelProps {
  /** The connection indicator (or the reconnect button) beside the title. */
  status: ReactNode;
  pinned?: ReactNode;
  /** Names the message area as a live log (a focusable scroll region); a closed chat has none. */
  logLabel?: string;
  children: ReactNode;
  footer: ReactNode;
}

export function ChatPanel({ status, pinned, logLabel, children, footer }: ChatPanelProps) {
  return (
    <div className="stream-chat-panel">
      <div className="stream-chat-panel-header">
        <h2 className="stream-chat-panel-title">LIVE CHAT</h2>
        {status}
      </div>
      {pinned}
      {/* Reversed flow keeps the view anchored to the newest line as lines arrive or the screen resizes. */}
      <div className="stream-chat-panel-body" {...(logLabel ? { role: "log", "aria-label": logLabel, tabIndex: 0 } : {})}>
        <div className="stream-chat-panel-content">{children}</div>
      </div>
      <div className="stream-chat-panel-footer">{footer}</div>
    </div>
  );
}

/** Donation lines are styled by size: from £10 a tier, £20 and up with an accent bar, £50 and up the top style. */
export type DonationTier = 0 | 10 | 20 | 50;

export function donationTier(pounds: number): DonationTier {
  if (pounds >= 50) return 50;
  if (pounds >= 20) return 20;
  if (pounds >= 10) return 10;
  return 0;
}

/** How many name colours the theme has (--chat-name-1 …). */
const NAME_COLOURS = 7;

/** A steady colour per name, so a voice is easy to follow down the chat: one of the theme's name colours. */
export function nameColour(username: string): string {
  let hash = 0;
  for (const char of username.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `var(--chat-name-${(hash % NAME_COLOURS) + 1})`;
}

const STAFF_LABELS = { admin: { short: "ADMIN", long: "Admin" }, moderator: { short: "MOD", long: "Moderator" } } as const;

/** The mark of a line an admin or a moderator wrote: from the server's flag on the line, never from its text. */
function StaffBadge({ staff }: { staff: NonNullable<ChatMessage["staff"]> }) {
  const label = STAFF_LABELS[staff];
  return (
    <span className="stream-chat-staff-badge" data-staff={staff} title={label.long}>
      <span aria-hidden="true">{label.short}</span>
      <span className="sr-only">{label.long}:</span>
    </span>
  );
}

/** One chat line. Text is always rendered as text; a donation's amount in the currency it was paid in (the event's for a line that does not say). */
export function ChatLine({ message, actions, currency = DEFAULT_CURRENCY }: { message: ChatMessage; actions?: ReactNode; currency?: string }) {
  if (message.type === "system") {
    return (
      <li className="stream-chat-line stream-chat-line-system">
        <p className="stream-chat-line-text">{message.text}</p>
      </li>
    );
  }
  if (message.type === "donation") {
    const tier = donationTier(message.donation ?? 0);
    return (
      <li className="stream-chat-line stream-chat-line-donation" data-tier={tier} tabIndex={actions ? -1 : undefined}>
        <p className="stream-chat-line-text">
          <span className="stream-chat-donation-amount">{formatMoney(Math.round((message.donation ?? 0) * 100), message.currency ?? currency)}</span>
          <span className="stream-chat-user">{message.username}</span> <span className="stream-chat-donation-text">{message.text}</span>
        </p>
        {actions}
      </li>
    );
  }
  return (
    // With tools, a tap (or click) on the line focuses it, which shows them.
    <li className={message.staff ? "stream-chat-line stream-chat-line-staff" : "stream-chat-line"} tabIndex={actions ? -1 : undefined}>
      <p className="stream-chat-line-text">
        {message.staff ? <StaffBadge staff={message.staff} /> : null}
        <span className="stream-chat-user" style={{ color: nameColour(message.username) }}>
          {message.username}
        </span>{" "}
        <span className="stream-chat-text">{message.text}</span>
      </p>
      {actions}
    </li>
  );
}
