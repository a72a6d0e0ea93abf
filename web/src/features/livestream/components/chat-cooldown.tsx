import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { describeDuration, SLOW_MODE_CHOICES } from "@contracts/chat-limits";
import { ClockIcon } from "@/components/ui/stream-icons";
import type { ChatCooldown, LiveStore } from "../stores/live-store";

function secondsUntil(cooldown: ChatCooldown | null): number {
  return cooldown ? Math.max(0, Math.ceil((cooldown.until - Date.now()) / 1000)) : 0;
}

/** Seconds before this viewer may chat again (0 when they may), counting down once a second. */
export function useCooldownSeconds(store: LiveStore): { seconds: number; reason: ChatCooldown["reason"] | null } {
  useSignals();
  const cooldown = store.cooldown.value;
  const [, tick] = useState(0);
  const seconds = secondsUntil(cooldown);
  useEffect(() => {
    if (!cooldown) return;
    const timer = setInterval(() => {
      tick((n) => n + 1);
      if (secondsUntil(cooldown) === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [cooldown]);
  return { seconds, reason: seconds > 0 ? (cooldown?.reason ?? null) : null };
}

/** "4:32" under an hour and over a minute, "45 s" under a minute, else "1 hour 30 minutes". */
function clock(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return describeDuration(seconds);
}

/** Above the composer: the wait before the next message (slow mode or a timeout), or that slow mode is on. */
export function CooldownNotice({ store, seconds, reason }: { store: LiveStore; seconds: number; reason: ChatCooldown["reason"] | null }) {
  useSignals();
  const slowMode = store.slowModeSeconds.value;
  if (reason === "timeout") {
    return (
      <p className="stream-chat-cooldown stream-chat-cooldown-timeout" role="status">
        <ClockIcon aria-hidden="true" />
        <span>
          You are timed out. You can chat again in <strong>{clock(seconds)}</strong>.
        </span>
      </p>
    );
  }
  if (reason === "slow_mode") {
    return (
      <p className="stream-chat-cooldown" role="status">
        <ClockIcon aria-hidden="true" />
        <span>
          Slow mode: you can send another message in <strong>{clock(seconds)}</strong>.
        </span>
      </p>
    );
  }
  if (slowMode > 0 && !store.isModerator.value) {
    return (
      <p className="stream-chat-cooldown stream-chat-cooldown-quiet" role="status">
        <ClockIcon aria-hidden="true" />
        <span>Slow mode is on: one message every {describeDuration(slowMode)}.</span>
      </p>
    );
  }
  return null;
}

const SLOW_MODE_LABELS: Record<number, string> = { 0: "Slow: off", 5: "Slow: 5 s", 10: "Slow: 10 s", 30: "Slow: 30 s", 60: "Slow: 60 s", 120: "Slow: 120 s" };

/** For moderators: the chat's slow-mode interval, applied for everyone by the server. */
export function SlowModeControl({ store, onChange }: { store: LiveStore; onChange: (seconds: number) => void }) {
  useSignals();
  if (!store.isModerator.value) return null;
  return (
    <label className="stream-chat-slow-mode" title="Slow mode">
      <ClockIcon aria-hidden="true" />
      <span className="sr-only">Slow mode</span>
      <select value={store.slowModeSeconds.value} onChange={(event) => onChange(Number(event.target.value))}>
        {SLOW_MODE_CHOICES.map((seconds) => (
          <option key={seconds} value={seconds}>
            {SLOW_MODE_LABELS[seconds]}
          </option>
        ))}
      </select>
    </label>
  );
}
