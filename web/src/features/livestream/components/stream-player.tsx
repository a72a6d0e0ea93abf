import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, type CSSProperties, type RefObject } from "react";
import { HeartIcon } from "@/components/ui/stream-icons";
import { lazyPart } from "@/hooks/use-lazy-part";
import { importFresh } from "@/lib/app-version";
import { hasMediaSource, liveHlsEngine, loadHls } from "@/lib/hls-engine";
import type { StreamPlayback } from "@contracts/stream";
import type { LiveStore } from "../stores/live-store";
import { StreamLoading, StreamWaiting } from "./stream-loading";
import { Watermark } from "./watermark";

// The players of an HLS source come only for a source that needs one (a provider's plays in its frame):
// fetched once the page knows its source, hls.js alongside where the browser needs it. Until one is in
// (tried again while the connection is down) the loading card stands in for it.
const loadHlsVideo = () => importFresh(() => import("./hls-video"));
const loadLiveVideo = () => importFresh(() => import("./live-video"));

const HlsVideo = lazyPart(loadHlsVideo, (m) => m.HlsVideo, <StreamLoading overlay />);
const LiveVideo = lazyPart(loadLiveVideo, (m) => m.LiveVideo, <StreamLoading overlay />);

/** A video element that is never shown, to ask what this browser can play: made once. */
let probe: HTMLVideoElement | undefined;

/** Whether the player of this kind of source plays through hls.js in this browser. */
function needsHlsJs(kind: StreamPlayback["kind"] | undefined): boolean {
  if (kind === "hls") return hasMediaSource();
  if (kind === "ingest") return liveHlsEngine((probe ??= document.createElement("video"))) === "hls.js";
  return false;
}

interface StreamPlayerProps {
  /** The viewer's playback address; absent or with an empty url while there is nothing to play. */
  playback: StreamPlayback | undefined;
  /** The admin has the livestream switched off: it says so instead of waiting for a stream. */
  offline?: boolean;
  /** The night is on a break (its publisher gone for now): the stream will be right back. */
  onBreak?: boolean;
  title: string;
  /** The event's start (ISO), shown while there is nothing to play yet. */
  startDate: string | undefined;
  playerRef: RefObject<HTMLIFrameElement | HTMLVideoElement | null>;
  store: LiveStore;
  /** Asks the server for a fresh playback address (the player has to load again). */
  onReload: () => void;
}

/**
 * The player: the provider's iframe, the relayed HLS video or the built-in ingest's; the loading card and the event's start
 * until there is an address; the viewer's watermark and the hearts float over it.
 */
export function StreamPlayer({ playback, offline = false, onBreak = false, title, startDate, playerRef, store, onReload }: StreamPlayerProps) {
  const url = offline ? "" : (playback?.url ?? "");
  // The built-in ingest gives no address while OBS is not publishing: the stream is offline until it does.
  const publisherAway = playback?.kind === "ingest" && !url;
  const hlsJs = url !== "" && needsHlsJs(playback?.kind);
  useEffect(() => {
    // The player fetches it too, and says so if it cannot: this only starts it sooner.
    if (hlsJs) void loadHls().catch(() => {});
  }, [hlsJs]);
  return (
    <div className={url ? "stream-player stream-player-frame" : "stream-player stream-player-empty"}>
      {!url ? (
        <StreamWaiting startDate={startDate} offline={offline || publisherAway} onBreak={onBreak && !offline} />
      ) : playback?.kind === "hls" ? (
        <HlsVideo src={url} title={title} playerRef={playerRef} onReload={onReload} />
      ) : playback?.kind === "ingest" ? (
        <LiveVideo src={url} title={title} playerRef={playerRef} onReload={onReload} />
      ) : (
        <iframe
          ref={(element) => {
            playerRef.current = element;
          }}
          src={url}
          title={`${title} – live stream`}
          allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      )}
      {url && playback?.watermark ? <Watermark text={playback.watermark} /> : null}
      <FloatingHearts store={store} />
    </div>
  );
}

function FloatingHearts({ store }: { store: LiveStore }) {
  useSignals();
  return (
    <div className="stream-hearts-layer" aria-hidden="true">
      {store.hearts.value.map((heart) => (
        <span key={heart.id} className="stream-floating-heart" style={{ "--x": heart.x, "--sway": `${heart.sway}px`, "--scale": heart.scale } as CSSProperties}>
          <HeartIcon />
        </span>
      ))}
    </div>
  );
}
