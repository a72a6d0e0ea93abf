import { useState } from "react";
import type { ChatMessage } from "@contracts/chat";
import { BanIcon, CoinsIcon, PinIcon, TrashIcon, UserXIcon } from "@/components/ui/icons";

/** "banRefund": an admin bans and refunds the viewer's pass in one step. */
export type ModeratorAction = "delete" | "pin" | "kick" | "ban" | "banRefund";

interface ModeratorActionsProps {
  message: ChatMessage;
  /** The moderator's own line: no kick or ban of oneself. */
  own: boolean;
  onAction: (action: ModeratorAction, message: ChatMessage) => void;
  /** Only the pin toggle (the pinned box). */
  pinOnly?: boolean;
  /** An admin: ban and refund the pass together is offered too. */
  canRefund?: boolean;
}

/** A moderator's buttons on a chat line. Delete, kick, ban (and an admin's ban and refund) ask 'Confirm?' first. */
export function ModeratorActions({ message, own, onAction, pinOnly = false, canRefund = false }: ModeratorActionsProps) {
  const [confirming, setConfirming] = useState<Exclude<ModeratorAction, "pin"> | null>(null);
  const name = message.username;

  if (confirming) {
    const what = { delete: `Delete this message from ${name}`, kick: `Kick ${name}`, ban: `Ban ${name}`, banRefund: `Ban ${name} and refund their pass` }[confirming];
    return (
      <div className="chat-mod-confirm" role="group" aria-label={what}>
        <span className="chat-mod-confirm-text">Confirm?</span>
        <button
          type="button"
          className="chat-mod-yes"
          onClick={() => {
            setConfirming(null);
            onAction(confirming, message);
          }}
        >
          Yes
        </button>
        <button type="button" className="chat-mod-no" onClick={() => setConfirming(null)} autoFocus>
          No
        </button>
      </div>
    );
  }

  return (
    <div className="chat-mod-actions">
      {pinOnly ? null : (
        <button type="button" className="chat-mod-button" aria-label={`Delete message from ${name}`} title="Delete" onClick={() => setConfirming("delete")}>
          <TrashIcon />
        </button>
      )}
      <button
        type="button"
        className="chat-mod-button"
        aria-label={message.isPinned ? `Unpin message from ${name}` : `Pin message from ${name}`}
        title={message.isPinned ? "Unpin" : "Pin"}
        onClick={() => onAction("pin", message)}
      >
        <PinIcon />
      </button>
      {pinOnly || own ? null : (
        <>
          <button type="button" className="chat-mod-button" aria-label={`Kick ${name}`} title="Kick" onClick={() => setConfirming("kick")}>
            <UserXIcon />
          </button>
          <button type="button" className="chat-mod-button chat-mod-danger" aria-label={`Ban ${name}`} title="Ban" onClick={() => setConfirming("ban")}>
            <BanIcon />
          </button>
          {canRefund ? (
            <button
              type="button"
              className="chat-mod-button chat-mod-danger"
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
