import { useState, type ReactNode } from "react";
import { Link } from "wouter";
import type { ChatMessage } from "@contracts/chat";
import { Alert } from "@/components/ui/alert";
import { Countdown } from "@/components/ui/countdown";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { SkullIcon } from "@/components/ui/icons";
import { EyeIcon, GiftIcon, HeartIcon, SendIcon } from "@/components/ui/stream-icons";
import { RefreshIcon } from "@/components/ui/site-icons";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";
import { ChatLine, FearMeter, StreamStat } from "@/features/livestream/components/stream-layout";
import { toast } from "@/hooks/use-toast";

const SWATCHES = [
  { name: "Void", token: "--bg" },
  { name: "Crypt", token: "--surface" },
  { name: "Coffin", token: "--surface-3" },
  { name: "Old blood", token: "--blood-700" },
  { name: "Blood", token: "--blood-600" },
  { name: "Fresh blood", token: "--blood-500" },
  { name: "Wound", token: "--blood-300" },
  { name: "Bone", token: "--bone" },
  { name: "Ash", token: "--ash" },
  { name: "Alive", token: "--success" },
];

const at = "2030-10-31T23:00:00.000Z";
const line = (id: string, fields: Partial<ChatMessage>): ChatMessage => ({ id, username: "", text: "", timestamp: at, type: "user", isPinned: false, ...fields });

const CHAT_SAMPLES: { label: string; message: ChatMessage }[] = [
  { label: "User", message: line("u1", { username: "HollowMoth", text: "did anyone else hear that from the cellar?" }) },
  { label: "User", message: line("u2", { username: "Nightjar", text: "the lights just went out on my end too" }) },
  { label: "Admin", message: line("a1", { username: "warden", text: "Doors close at midnight. Stay in your seats.", staff: "admin" }) },
  { label: "Moderator", message: line("m1", { username: "Gravekeeper", text: "keep it spooky, not cruel", staff: "moderator" }) },
  { label: "System", message: line("s1", { type: "system", text: "Welcome to the chat. Be kind — the dark is scary enough." }) },
  { label: "Under £10", message: line("d5", { type: "donation", username: "Wraith", donation: 5, text: "donated £5.00" }) },
  { label: "£10 tier", message: line("d10", { type: "donation", username: "Candlelight", donation: 10, text: "donated £10.00" }) },
  { label: "£20 tier, accent bar", message: line("d20", { type: "donation", username: "GraveDigger", donation: 20, text: "donated £20.00" }) },
  { label: "£50 and up, top style", message: line("d50", { type: "donation", username: "TheOtherOne", donation: 100, text: "donated £100.00" }) },
];

// Three days ahead, fixed when the page opens.
const COUNTDOWN_TARGET = Date.now() + ((3 * 24 + 7) * 60 + 13) * 60 * 1000;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="design-section" aria-labelledby={id}>
      <h2 id={id} className="design-heading">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The design page: the site's palette, type and components side by side. */
export function DesignPage() {
  const [name, setName] = useState("");
  return (
    <main className="page design">
      <header className="page-intro">
        <Link href={paths.home} className="design-brand">
          {BRAND}
        </Link>
        <h1 className="display page-title">Design</h1>
        <p className="page-lead">The colours, type and parts every screen of the event is built from.</p>
      </header>

      <Section id="design-colours" title="Colours">
        <ul className="design-swatches">
          {SWATCHES.map((s) => (
            <li key={s.token} className="design-swatch">
              <span className="design-swatch-chip" style={{ background: `var(${s.token})` }} />
              <span className="design-swatch-name">{s.name}</span>
              <code className="design-swatch-token">{s.token}</code>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="design-type" title="Type">
        <div className="card panel design-type">
          <p className="display design-type-display">Enter The Nightmare</p>
          <p className="design-type-caption">Creepster · titles and the big moments</p>
          <p className="eyebrow">Special Elite · for labels and small captions</p>
          <p>Body text uses the system font so it stays sharp and readable on every phone, at every size, in the dark.</p>
        </div>
      </Section>

      <Section id="design-buttons" title="Buttons">
        <div className="card panel design-buttons">
          <button type="button" className="btn btn-primary" onClick={() => toast({ title: "Access Granted", description: "Welcome to the darkness." })}>
            Show a toast
          </button>
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => toast({ variant: "destructive", title: "Access Denied", description: "Your access code has expired or is not valid." })}
          >
            Show an error toast
          </button>
          <button type="button" className="btn">
            Secondary
          </button>
          <button type="button" className="btn btn-ghost">
            Ghost
          </button>
          <button type="button" className="btn btn-primary" disabled>
            Disabled
          </button>
          <button type="button" className="btn btn-outline stream-donate-button">
            <GiftIcon />
            Donate
          </button>
          <button type="button" className="btn stream-heart-button" aria-label="Send heart (sample)">
            <HeartIcon />
          </button>
          <button type="button" className="btn btn-primary btn-icon" aria-label="Send message (sample)">
            <SendIcon />
          </button>
          <button type="button" className="btn btn-outline stream-chat-reconnect">
            <RefreshIcon />
            RECONNECT
          </button>
        </div>
      </Section>

      <Section id="design-forms" title="Form fields">
        <div className="design-grid">
          <form className="card panel form" onSubmit={(e) => e.preventDefault()}>
            <FormField label="Chat username" placeholder="Your name in the chat" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
            <FormField label="Access code" placeholder="SKP-XXXXXXXX" error="Access code is required" autoComplete="off" />
            <FormField label="E-mail" type="email" placeholder="you@example.com" hint="We send your code here." autoComplete="off" />
          </form>
          <div className="card panel design-stack">
            <Alert>Each access code works on one device only.</Alert>
            <Alert variant="error" title="Payment Failed">
              Your card was declined.
            </Alert>
            <EmptyState icon={<SkullIcon />} title="Nothing here yet">
              Empty lists look like this.
            </EmptyState>
          </div>
        </div>
      </Section>

      <Section id="design-chat" title="Chat messages">
        <div className="design-grid design-grid-chat">
          <div className="stream-chat-panel design-chat">
            <div className="stream-chat-panel-header">
              <p className="stream-chat-panel-title">LIVE CHAT</p>
              <span className="stream-chat-status stream-chat-status-connected">Connected</span>
            </div>
            <ol className="stream-chat-list">
              {CHAT_SAMPLES.map((sample) => (
                <ChatLine key={sample.message.id} message={sample.message} />
              ))}
            </ol>
          </div>
          <dl className="card panel design-tiers">
            {CHAT_SAMPLES.map((sample) => (
              <div key={sample.message.id} className="design-tier">
                <dt>{sample.label}</dt>
                <dd>
                  {sample.message.type === "system"
                    ? "Italic, centred, quiet."
                    : sample.message.staff
                      ? "A badge from the server's flag on the line; no text can make one."
                      : sample.message.type === "user"
                        ? "Name in a steady colour per viewer."
                        : describeTier(sample.message.donation ?? 0)}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>

      <Section id="design-live" title="Meter and counts">
        <div className="design-grid design-grid-live">
          <FearMeter current={2500} goal={5000} />
          <div className="card panel design-stats">
            <span className="stream-live">
              <span className="stream-live-dot" aria-hidden="true" />
              LIVE
            </span>
            <StreamStat icon={<EyeIcon />} label="Viewers" value="2,500" />
            <span className="stream-stat-hearts">
              <StreamStat icon={<HeartIcon />} label="Hearts" value="1,250" />
            </span>
          </div>
        </div>
      </Section>

      <Section id="design-countdown" title="Countdown">
        <div className="card panel">
          <Countdown target={COUNTDOWN_TARGET} />
        </div>
      </Section>
    </main>
  );
}

function describeTier(pounds: number): string {
  if (pounds >= 50) return "Deep blood card, white amount badge, glow.";
  if (pounds >= 20) return "Bright accent bar down the left edge.";
  if (pounds >= 10) return "Stronger red wash and border.";
  return "A soft red card with the amount badge.";
}
