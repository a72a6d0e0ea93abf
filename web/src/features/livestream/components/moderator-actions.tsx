import { useState } from "react";
import type { ChatMessage } from "@contracts/chat";
import { TIMEOUT_CHOICES } from "@contracts/chat-limits";
import { BanIcon, CoinsIcon, TrashIcon, UserXIcon } from "@/components/ui/icons";
import { ClockIcon, PinIcon } from "@/components/ui/stream-icons";

/** "banRefund": an admin bans and refunds the viewer's pass in one step. */
export type ModeratorAction = "delete" | "pin" | "kick" | "ban" | "banRefund" | "timeout";

/** What an action carries besides the message: a timeout's length, a ban's reason. */
export interface ModeratorActionOptions {
  seconds?: number;
  reason?: string;
}

interface ModeratorActionsProps {
  message: ChatMessage;
  /** The moderator's own line: no timeout, kick or ban of oneself. */
  own: boolean;
  onAction: (action: ModeratorAction, message: ChatMessage, options?: ModeratorActionOptions) => void;
  /** Only the pin toggle (the pinned box). */
  pinOnly?: boolean;
  /** An admin: ban and refund the pass together is offered too. */
  canRefund?: boolean;
}

const TIMEOUT_LABELS: Record<number, string> = { 60: "1m", 300: "5m", 600: "10m", 3600: "1h" };
const TIMEOUT_NAMES: Record<number, string> = { 60: "1 minute", 300: "5 minutes", 600: "10 minutes", 3600: "1 hour" };

/**
 * A moderator's buttons on a chat line (in the log they float over the line while it is hovered or
 * focused). Delete, kick, ban (and an admin's ban and refund) ask 'Confirm?' first, and Timeout asks for
 * how long, on a row of their own under the line.
 */
export function ModeratorActions({ message, own, onAction, pinOnly = false, canRefund = false }: ModeratorActionsProps) {
  const [confirming, setConfirming] = useState<Exclude<ModeratorAction, "pin"> | null>(null);
  const [reason, setReason] = useState("");
  const name = message.username;
  const close = () => {
    setConfirming(null);
    setReason("");
  };

  if (confirming === "timeout") {
    return (
      <div className="stream-chat-mod-confirm stream-chat-mod-wide" role="group" aria-label={`Time out ${name}`}>
        <span className="stream-chat-mod-confirm-text">Timeout:</span>
        {TIMEOUT_CHOICES.map((seconds) => (
          <button
            key={seconds}
            type="button"
            className="stream-chat-mod-choice"
            aria-label={`Time out ${name} for ${TIMEOUT_NAMES[seconds]}`}
            onClick={() => {
              close();
              onAction("timeout", message, { seconds });
            }}
          >
            {TIMEOUT_LABELS[seconds]}
          </button>
        ))}
        <button type="button" className="stream-chat-mod-no" onClick={close} autoFocus>
          No
        </button>
      </div>
    );
  }

  if (confirming) {
    const what = { delete: `Delete this message from ${name}`, kick: `Kick ${name}`, ban: `Ban ${name}`, banRefund: `Ban ${name} and refund their pass` }[confirming];
    return (
      <div className="stream-chat-mod-confirm stream-chat-mod-wide" role="group" aria-label={what}>
        {confirming === "ban" ? (
          <input
            className="stream-chat-mod-reason"
            aria-label={`Reason for banning ${name} (optional)`}
            placeholder="Reason (optional)"
            maxLength={200}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        ) : null}
        <span className="stream-chat-mod-confirm-text">Confirm?</span>
        <button
          type="button"
          className="stream-chat-mod-yes"
          onClick={() => {
            close();
            onAction(confirming, message, confirming === "ban" && reason.trim() ? { reason: reason.trim() } : undefined);
          }}
        >
          Yes
        </button>
        <button type="button" className="stream-chat-mod-no" onClick={close} autoFocus={confirming !== "ban"}>
          No
        </button>
      </div>
    );
  }

  return (
    <div className="stream-chat-mod-actions">
      {pinOnly ? null : (
        <button type="button" className="stream-chat-mod-button" aria-label={`Delete message from ${name}`} title="Delete" onClick={() => setConfirming("delete")}>
          <TrashIcon />
        </button>
      )}
      <button
        type="button"
        className="stream-chat-mod-button"
        aria-label={message.isPinned ? `Unpin message from ${name}` : `Pin message from ${name}`}
        title={message.isPinned ? "Unpin" : "Pin"}
        onClick={() => onAction("pin", message)}
      >
        <PinIcon />
      </button>
      {pinOnly || own ? null : (
        <>
          <button type="button" className="stream-chat-mod-button" aria-label={`Time out ${name}`} title="Timeout" onClick={() => setConfirming("timeout")}>
            <ClockIcon />
          </button>
          <button type="button" className="stream-chat-mod-button" aria-label={`Kick ${name}`} title="Kick" onClick={() => setConfirming("kick")}>
            <UserXIcon />
          </button>
          <button type="button" className="stream-chat-mod-button stream-chat-mod-danger" aria-label={`Ban ${name}`} title="Ban" onClick={() => setConfirming("ban")}>
            <BanIcon />
          </button>
          {canRefund ? (
            <button
              type="button"
              className="stream-chat-mod-button stream-chat-mod-danger"
              aria-label={`Ban ${name} and refund their pass`}
              title="Ban and refund"
              onClick={() => setConfirming("banRefund")}
            >
              <CoinsIcon />
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}
