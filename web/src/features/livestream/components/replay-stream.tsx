import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { StreamPlayback } from "@contracts/stream";
import { RewindIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { formatEventDay, formatEventTime } from "@/lib/dates";
import { useReplayChat } from "../api/get-replay-chat";
import { chatCutAt, indexReplayChat, sameCut, type ChatCut } from "../utils/replay-chat";
import { ReplayChat, ReplayChatClosed } from "./replay-chat";
import { ReplayPlayer } from "./replay-player";
import { StreamLayout } from "./stream-layout";

/** "1 h 05 min", "8 min", "45 s": how long the replay plays. */
export function playLength(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** "Saturday 31 October 2026 at 21:00 GMT", in the viewer's own time zone. */
const dayAndTime = (iso: string) => `${formatEventDay(iso)} at ${formatEventTime(iso)}`;

interface ReplayStreamProps {
  title: string;
  /** kind "replay": the VOD's address, or none once the replay's window has closed (`replayEndedAt`). */
  playback: StreamPlayback;
  headerEnd: ReactNode;
  /** Asks the server again what there is to play. */
  onReload: () => void;
}

/**
 * The stream screen after the night: the recording plays (seekable) with the chat beside it as it happened,
 * read-only; no hearts, donations or messages. Once the replay's window has closed, it says so and when.
 */
export function ReplayStream({ title, playback, headerEnd, onReload }: ReplayStreamProps) {
  const ended = !playback.url;
  const chat = useReplayChat(!ended);
  const index = useMemo(() => (chat.data ? indexReplayChat(chat.data) : undefined), [chat.data]);
  const [cut, setCut] = useState<ChatCut>({ said: 0, happened: 0 });
  // The moment the video shows, kept for when the chat arrives after the video has started.
  const moment = useRef<number | null>(null);

  const follow = useCallback(
    (at: number | null) => {
      moment.current = at;
      if (!index) return;
      const next = chatCutAt(index, at);
      setCut((current) => (sameCut(current, next) ? current : next));
    },
    [index],
  );
  useEffect(() => follow(moment.current), [follow]);

  return (
    <StreamLayout
      title={title}
      headerEnd={headerEnd}
      chatLabel="Chat replay"
      player={
        ended ? (
          playback.nightEndedAt ? (
            <NightOver endedAt={playback.nightEndedAt} replayComing={playback.replayComing === true} cancelled={playback.cancelled === true} />
          ) : (
            <ReplayEnded endedAt={playback.replayEndedAt} />
          )
        ) : (
          <ReplayPlayer src={playback.url} title={title} watermark={playback.watermark} onClock={follow} onFailed={onReload} />
        )
      }
      stats={ended ? undefined : <ReplayFacts startedAt={playback.startedAt} duration={playback.duration} />}
      chat={
        ended ? (
          <ReplayChatClosed nightOver={!!playback.nightEndedAt} replayComing={playback.replayComing === true} cancelled={playback.cancelled === true} />
        ) : (
          <ReplayChat index={index} loading={chat.isPending} failed={chat.isError} onRetry={() => void chat.refetch()} cut={cut} />
        )
      }
    />
  );
}

/** Under the player: the Replay mark, when the night was streamed live and how long the replay plays. */
function ReplayFacts({ startedAt, duration }: { startedAt: string | undefined; duration: number | undefined }) {
  return (
    <>
      <span className="stream-replay-badge">
        <RewindIcon />
        Replay
      </span>
      <p className="stream-replay-facts">
        {startedAt ? (
          <span>
            Streamed live on <time dateTime={startedAt}>{dayAndTime(startedAt)}</time>
          </span>
        ) : null}
        {duration !== undefined ? <span className="stream-replay-length">{playLength(duration)}</span> : null}
      </p>
    </>
  );
}

/** In place of the player once the night is ended and there is no replay to play: it is being prepared, or there is none. */
function NightOver({ endedAt, replayComing, cancelled }: { endedAt: string; replayComing: boolean; cancelled: boolean }) {
  const when = <time dateTime={endedAt}>{dayAndTime(endedAt)}</time>;
  const [icon, title, lead, follow] = cancelled
    ? [
        <AlertIcon key="icon" />,
        "The Event Was Cancelled",
        <>The organiser called it off on {when}: it will not be streamed.</>,
        "The home page has their word to the buyers, and whom to write to about your pass.",
      ]
    : [
        <RewindIcon key="icon" />,
        "The Night Is Over",
        <>It ended on {when}.</>,
        replayComing ? "Its replay is being prepared: it will play here soon, with the chat as it happened." : "There is no replay of this night. Thank you for watching.",
      ];
  return (
    <div className="stream-player stream-player-empty">
      <div className="stream-player-loading stream-player-offline stream-replay-ended" role="status">
        <span className="stream-replay-ended-icon" aria-hidden="true">
          {icon}
        </span>
        <p className="stream-player-title">{title}</p>
        <p className="stream-player-text">{lead}</p>
        <p className="stream-player-text">{follow}</p>
      </div>
    </div>
  );
}

/** In place of the player once the replay's window has closed: that it has ended, and when (the viewer's time). */
function ReplayEnded({ endedAt }: { endedAt: string | undefined }) {
  return (
    <div className="stream-player stream-player-empty">
      <div className="stream-player-loading stream-player-offline stream-replay-ended" role="status">
        <span className="stream-replay-ended-icon" aria-hidden="true">
          <RewindIcon />
        </span>
        <p className="stream-player-title">The Replay Has Ended</p>
        <p className="stream-player-text">
          {endedAt ? (
            <>
              It was available until <time dateTime={endedAt}>{dayAndTime(endedAt)}</time>.
            </>
          ) : (
            "It is no longer available."
          )}
        </p>
        <p className="stream-player-text">Thank you for watching.</p>
      </div>
    </div>
  );
}
