import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState, type FormEvent } from "react";
import type { ChatMessage } from "@contracts/chat";
import { CHAT_MESSAGE_MAX_LENGTH } from "@contracts/chat-limits";
import { GiftIcon, HeartIcon, PinIcon, SendIcon } from "@/components/ui/stream-icons";
import { RefreshIcon } from "@/components/ui/site-icons";
import { lazyPart, loadPart } from "@/hooks/use-lazy-part";
import { importFresh } from "@/lib/app-version";
import { withStylesheets } from "@/lib/stylesheets";
import { useEventCurrency } from "@/lib/money";
import { useBanAndRefund } from "../hooks/use-ban-and-refund";
import type { LiveConnection } from "../hooks/use-live-connection";
import type { LiveStore } from "../stores/live-store";
import { CONNECTION_ERROR, connectionFailing } from "../utils/connection-error";
import { donationsClosedReason } from "../utils/donations-closed";
import { CooldownNotice, SlowModeControl, useCooldownSeconds } from "./chat-cooldown";
import type { ModeratorAction, ModeratorActionOptions } from "./moderator-actions";
import { ChatLine, ChatPanel } from "./stream-layout";
import moderatorStyles from "./moderator-actions.css?url";

// A moderator's buttons come only for a moderator: fetched as soon as the chat says they are one (and
// tried again while the connection is down; the chat goes on without them until then).
const loadModeratorActions = () => importFresh(withStylesheets(() => import("./moderator-actions"), moderatorStyles));

const ModeratorActions = lazyPart(loadModeratorActions, (m) => m.ModeratorActions);

interface LiveChatProps {
  store: LiveStore;
  connection: LiveConnection;
  /** A signed-in admin (ban and refund in one step is offered). */
  isAdmin?: boolean;
  /** Access is still being checked: the chat is not connecting yet. */
  verifying: boolean;
  /** Access could not be checked for a while (it is asked again by itself, and on RECONNECT), so the chat cannot connect. */
  verificationFailed: boolean;
  onDonate: () => void;
  /** The pointer or focus is on Donate: a moment to fetch the dialog's code. */
  onDonateIntent?: () => void;
}

/** The LIVE CHAT panel: connection state, pinned line, the newest lines, the composer, donate and heart. */
export function LiveChat({ store, connection, isAdmin = false, verifying, verificationFailed, onDonate, onDonateIntent }: LiveChatProps) {
  useSignals();
  const ban = (target: string, reason?: string) => connection.send({ type: "ban_user", username: target, targetUsername: target, reason });
  const banAndRefund = useBanAndRefund(isAdmin, ban);
  const isModerator = store.isModerator.value;
  useEffect(() => {
    if (isModerator) void loadPart(loadModeratorActions).catch(() => {});
  }, [isModerator]);
  const moderate = (action: ModeratorAction, message: ChatMessage, options: ModeratorActionOptions = {}) => {
    // The server checks every action; this only skips what the flag says cannot work.
    if (!store.isModerator.value) return;
    const target = message.username;
    if (action === "delete") connection.send({ type: "delete_message", messageId: message.id });
    else if (action === "pin") connection.send({ type: "pin", messageId: message.id });
    else if (action === "timeout") connection.send({ type: "timeout_user", username: target, seconds: options.seconds ?? 300 });
    else if (action === "kick") connection.send({ type: "kick_user", username: target, targetUsername: target });
    else if (action === "ban") ban(target, options.reason);
    else banAndRefund?.(target);
  };

  return (
    <ChatPanel
      status={<ConnectionStatus store={store} connection={connection} verifying={verifying} verificationFailed={verificationFailed} />}
      pinned={<PinnedMessage store={store} onModerate={moderate} />}
      logLabel="Chat messages"
      footer={<Composer store={store} connection={connection} canDonate={!verifying && !verificationFailed} onDonate={onDonate} onDonateIntent={onDonateIntent} />}
    >
      <ConnectionError store={store} verificationFailed={verificationFailed} />
      <ChatMessages store={store} onModerate={moderate} canRefund={banAndRefund !== null} />
    </ChatPanel>
  );
}

function ConnectionStatus({ store, connection, verifying, verificationFailed }: Omit<LiveChatProps, "onDonate" | "onDonateIntent" | "isAdmin">) {
  useSignals();
  const status = store.connection.value;
  if (status.state === "open") return <span className="stream-chat-status stream-chat-status-connected">Connected</span>;
  const firstConnect = verifying || (status.state !== "closed" && status.attempt === 0 && status.removedWith === null);
  if (firstConnect && !verificationFailed) return <span className="stream-chat-status">Connecting…</span>;
  return (
    <button type="button" className="btn btn-outline stream-chat-reconnect" onClick={connection.reconnect}>
      <RefreshIcon />
      RECONNECT
    </button>
  );
}

function ConnectionError({ store, verificationFailed }: { store: LiveStore; verificationFailed: boolean }) {
  useSignals();
  if (!verificationFailed && !connectionFailing(store.connection.value)) return null;
  return (
    <p className="stream-chat-connection-error" role="alert">
      {CONNECTION_ERROR}
    </p>
  );
}

type Moderate = (action: ModeratorAction, message: ChatMessage, options?: ModeratorActionOptions) => void;

function PinnedMessage({ store, onModerate }: { store: LiveStore; onModerate: Moderate }) {
  useSignals();
  const pinned = store.pinned.value;
  const currency = useEventCurrency();
  if (!pinned) return null;
  return (
    <div className="stream-chat-pinned" role="note" aria-label="Pinned message">
      <PinIcon />
      <div className="stream-chat-pinned-body">
        <span className="stream-chat-pinned-label">Pinned</span>
        <ul className="stream-chat-pinned-list">
          <ChatLine
            message={pinned}
            currency={currency}
            actions={store.isModerator.value ? <ModeratorActions message={pinned} own={false} onAction={onModerate} pinOnly /> : undefined}
          />
        </ul>
      </div>
    </div>
  );
}

function ChatMessages({ store, onModerate, canRefund }: { store: LiveStore; onModerate: Moderate; canRefund: boolean }) {
  useSignals();
  const messages = store.visibleMessages.value;
  const isModerator = store.isModerator.value;
  const me = store.username.value?.toLowerCase() ?? null;
  const currency = useEventCurrency();

  if (messages.length === 0) return <p className="stream-chat-empty">Chat messages will appear here</p>;
  return (
    <ol className="stream-chat-list">
      {messages.map((message) => (
        <ChatLine
          key={message.id}
          message={message}
          currency={currency}
          actions={
            isModerator && message.type !== "system" ? (
              <ModeratorActions message={message} own={message.username.toLowerCase() === me} onAction={onModerate} canRefund={canRefund} />
            ) : undefined
          }
        />
      ))}
    </ol>
  );
}

interface ComposerProps {
  store: LiveStore;
  connection: LiveConnection;
  canDonate: boolean;
  onDonate: () => void;
  onDonateIntent?: () => void;
}

function Composer({ store, connection, canDonate, onDonate, onDonateIntent }: ComposerProps) {
  useSignals();
  const connected = store.connection.value.state === "open";
  // Banned, or the pass refunded: the server would refuse the payment, so the door closes with the reason.
  const donationsClosed = donationsClosedReason(store.connection.value);
  const [text, setText] = useState("");
  const blank = text.trim() === "";
  // Slow mode or a timeout: the server would refuse the line, so the button waits out the time with it.
  const cooldown = useCooldownSeconds(store);
  const waiting = cooldown.seconds > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!connected || blank || waiting) return;
    if (connection.send({ type: "chat_message", text: text.trim() })) setText("");
  };

  const sendHeart = () => {
    if (connection.send({ type: "send_heart" })) store.sentHeart();
  };

  return (
    <>
      <CooldownNotice store={store} seconds={cooldown.seconds} reason={cooldown.reason} />
      <form className="stream-chat-form" onSubmit={submit}>
        <label htmlFor="chat-message" className="sr-only">
          Chat message
        </label>
        <input
          id="chat-message"
          className="input"
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          placeholder={connected ? "Type a message..." : "Connecting..."}
          autoComplete="off"
          enterKeyHint="send"
        />
        <button type="submit" className="btn btn-primary btn-icon" disabled={!connected || blank || waiting} aria-label="Send message">
          <SendIcon />
        </button>
      </form>
      {donationsClosed ? (
        <p className="stream-donate-closed" id="donations-closed" role="status">
          <strong>Donations closed.</strong> {donationsClosed}
        </p>
      ) : null}
      <div className="stream-chat-actions">
        <SlowModeControl store={store} onChange={(seconds) => connection.send({ type: "slow_mode", seconds })} />
        <button
          type="button"
          className="btn btn-outline stream-donate-button"
          onClick={onDonate}
          onPointerEnter={donationsClosed ? undefined : onDonateIntent}
          onFocus={donationsClosed ? undefined : onDonateIntent}
          disabled={!canDonate || donationsClosed !== null}
          aria-describedby={donationsClosed ? "donations-closed" : undefined}
        >
          <GiftIcon />
          Donate
        </button>
        <button type="button" className="btn stream-heart-button" onClick={sendHeart} disabled={!connected || cooldown.reason === "timeout"} aria-label="Send heart">
          <HeartIcon />
        </button>
      </div>
    </>
  );
}
