import { useRef } from "react";
import { RewindIcon } from "@/components/ui/icons";
import { useReplayVideo } from "../hooks/use-replay-video";
import { Watermark } from "./watermark";

interface ReplayPlayerProps {
  src: string;
  title: string;
  watermark: string | null;
  /** Which moment of the night the video shows (ms since the epoch), as it plays and whenever it is moved. */
  onClock: (at: number | null) => void;
  /** The replay failed to load: the page asks what there is to play now (its window may have closed). */
  onFailed: () => void;
}

/** The replay: the night's recording with the browser's own controls (seekable), marked Replay, under the viewer's watermark. */
export function ReplayPlayer({ src, title, watermark, onClock, onFailed }: ReplayPlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const { state, retry } = useReplayVideo(videoRef, src, onClock, onFailed);
  return (
    <div className="stream-player stream-player-frame">
      <video ref={videoRef} className="stream-video" title={`${title} – replay`} controls playsInline preload="auto" data-state={state} />
      <span className="stream-replay-mark" aria-hidden="true">
        <RewindIcon />
        Replay
      </span>
      {state === "loading" ? (
        <div className="stream-player-loading stream-player-loading-overlay" role="status">
          <div className="spinner" aria-hidden="true" />
          <p className="stream-player-title">Loading Replay</p>
          <p className="stream-player-text">Please wait...</p>
        </div>
      ) : null}
      {state === "failed" ? (
        <div className="stream-player-loading stream-player-loading-overlay" role="alert">
          <p className="stream-player-title">Replay Interrupted</p>
          <p className="stream-player-text">The replay could not be loaded.</p>
          <button type="button" className="btn btn-outline" onClick={retry}>
            Try again
          </button>
        </div>
      ) : null}
      {state === "unsupported" ? (
        <div className="stream-player-loading stream-player-loading-overlay" role="alert">
          <p className="stream-player-title">This browser cannot play the replay</p>
          <p className="stream-player-text">Open this page in an up-to-date Safari, Chrome, Edge or Firefox to watch.</p>
        </div>
      ) : null}
      {watermark ? <Watermark text={watermark} /> : null}
    </div>
  );
}
