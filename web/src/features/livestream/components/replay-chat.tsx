import type { ReactNode } from "react";
import { LockIcon, RewindIcon } from "@/components/ui/icons";
import { PinIcon } from "@/components/ui/stream-icons";
import { useEventCurrency } from "@/lib/money";
import { REMOVED_LINE_TEXT, type ReplayLine } from "@contracts/replay";
import { VISIBLE_MESSAGES } from "../stores/live-store";
import { chatAtCut, type ChatCut, type ReplayChatIndex } from "../utils/replay-chat";
import { ChatLine } from "./stream-layout";

/** The chat panel's frame as the live chat has it, read-only: the title marked Replay, the lines, a note in place of the composer. */
function ReplayChatFrame({ pinned, children, note, mark = true }: { pinned?: ReactNode; children: ReactNode; note: ReactNode; mark?: boolean }) {
  return (
    <div className="stream-chat-panel stream-replay-chat" data-testid="replay-chat">
      <div className="stream-chat-panel-header">
        <h2 className="stream-chat-panel-title">CHAT</h2>
        {mark ? (
          <span className="stream-replay-chat-mark">
            <RewindIcon />
            Replay
          </span>
        ) : null}
      </div>
      {pinned}
      <div className="stream-chat-panel-body" role="log" aria-label="Chat messages" tabIndex={0}>
        <div className="stream-chat-panel-content">{children}</div>
      </div>
      <div className="stream-chat-panel-footer">
        <p className="stream-replay-chat-note">
          <LockIcon />
          <span>{note}</span>
        </p>
      </div>
    </div>
  );
}

/** A line as the replay shows it: one moderators took down keeps its place, marked, without its words or its author. */
function ReplayChatLine({ line, currency }: { line: ReplayLine; currency: string }) {
  if (!line.removed) return <ChatLine message={line} currency={currency} />;
  return (
    <li className="stream-chat-line stream-replay-chat-removed">
      <p className="stream-chat-line-text">{REMOVED_LINE_TEXT}</p>
    </li>
  );
}

const READ_ONLY = "The chat as it happened, read-only. Sending messages, hearts and donations was for the live night.";

interface ReplayChatProps {
  /** The night's chat, once loaded. */
  index: ReplayChatIndex | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  /** How far the video has got into the night's chat. */
  cut: ChatCut;
}

/** Beside the replay: the lines said up to the moment the video shows, the line pinned then; seeking moves it too. */
export function ReplayChat({ index, loading, failed, onRetry, cut }: ReplayChatProps) {
  const currency = useEventCurrency();
  if (!index) {
    return (
      <ReplayChatFrame note={READ_ONLY}>
        {failed ? (
          <div className="stream-chat-empty stream-replay-chat-failed" role="alert">
            <p>The night&apos;s chat could not be loaded.</p>
            <button type="button" className="btn btn-outline" onClick={onRetry}>
              Try again
            </button>
          </div>
        ) : (
          <p className="stream-chat-empty" role="status">
            {loading ? "Loading the night's chat…" : "The chat follows the video."}
          </p>
        )}
      </ReplayChatFrame>
    );
  }
  const { lines, pinned } = chatAtCut(index, cut, VISIBLE_MESSAGES);
  return (
    <ReplayChatFrame
      note={READ_ONLY}
      pinned={
        pinned ? (
          <div className="stream-chat-pinned" role="note" aria-label="Pinned message">
            <PinIcon />
            <div className="stream-chat-pinned-body">
              <span className="stream-chat-pinned-label">Pinned</span>
              <ul className="stream-chat-pinned-list">
                <ReplayChatLine line={pinned} currency={currency} />
              </ul>
            </div>
          </div>
        ) : null
      }
    >
      {lines.length === 0 ? (
        <p className="stream-chat-empty">{index.lines.length === 0 ? "No one chatted during the night." : "Messages appear as the video reaches the moment they were sent."}</p>
      ) : (
        <ol className="stream-chat-list">
          {lines.map((line) => (
            <ReplayChatLine key={line.id} line={line} currency={currency} />
          ))}
        </ol>
      )}
    </ReplayChatFrame>
  );
}

/** After the replay's window: the chat went with it. */
export function ReplayChatClosed({ nightOver = false, replayComing = false, cancelled = false }: { nightOver?: boolean; replayComing?: boolean; cancelled?: boolean }) {
  if (cancelled) {
    return (
      <ReplayChatFrame note="The event was cancelled." mark={false}>
        <p className="stream-chat-empty">The chat is closed: there will be no live night.</p>
      </ReplayChatFrame>
    );
  }
  if (nightOver) {
    return (
      <ReplayChatFrame note="The chat closed with the night.">
        <p className="stream-chat-empty">{replayComing ? "It replays here beside the recording once the replay is ready." : "Thank you to everyone who was there."}</p>
      </ReplayChatFrame>
    );
  }
  return (
    <ReplayChatFrame note="The replay and its chat are no longer available.">
      <p className="stream-chat-empty">The night&apos;s chat closed with the replay.</p>
    </ReplayChatFrame>
  );
}
