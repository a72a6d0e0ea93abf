import { useRef } from "react";
import { useLiveHls } from "@/hooks/use-live-hls";
import { liveHlsStateName } from "@/lib/live-hls";
import type { HlsVideoProps } from "./hls-video";
import { StreamLoading, StreamOffline } from "./stream-loading";

/**
 * The built-in ingest's low-latency stream. While it loads it shows 'Loading Stream'; while the publisher is
 * away, 'Stream Offline' over the player, and the stream comes back by itself when the publisher does.
 */
export function LiveVideo({ src, title, playerRef, onReload }: HlsVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useLiveHls(videoRef, src, onReload);
  return (
    <>
      <video
        ref={(element) => {
          videoRef.current = element;
          playerRef.current = element;
        }}
        className="stream-video"
        title={`${title} – live stream`}
        controls
        playsInline
        data-state={liveHlsStateName(state)}
      />
      {state === "loading" ? <StreamLoading overlay /> : null}
      {state === "offline" ? <StreamOffline overlay /> : null}
      {state === "unsupported" ? <StreamUnsupported /> : null}
      {typeof state === "object" ? <CodecUnsupported codec={state.codec} /> : null}
    </>
  );
}

/** The streamer sends a video codec (HEVC, AV1) this browser cannot decode: another browser or device can. */
function CodecUnsupported({ codec }: { codec: string }) {
  return (
    <div className="stream-player-loading stream-player-loading-overlay" role="alert">
      <p className="stream-player-title">This browser cannot play the stream</p>
      <p className="stream-player-text">The video comes as {codec}, which this browser cannot decode. Open this page in another browser or on another device to watch.</p>
    </div>
  );
}

/** Neither Media Source Extensions nor the browser's own HLS: nothing here can play the stream. */
function StreamUnsupported() {
  return (
    <div className="stream-player-loading stream-player-loading-overlay" role="alert">
      <p className="stream-player-title">This browser cannot play the stream</p>
      <p className="stream-player-text">Open this page in an up-to-date Safari, Chrome, Edge or Firefox to watch.</p>
    </div>
  );
}
