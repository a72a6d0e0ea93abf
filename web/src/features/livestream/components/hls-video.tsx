import { useEffect, useRef, useState, type RefObject } from "react";
import { StreamLoading } from "./stream-loading";
import { hasMediaSource, loadHls } from "@/lib/hls-engine";
import { playWithSound, rejoinLiveEdge } from "@/lib/live-hls";

/** After the relay or the origin fails, try again this soon (the relay's Retry-After is 2 s). */
const RETRY_MS = 3000;
/** How often the player's distance from the live edge is looked at. */
const REJOIN_CHECK_MS = 1000;

export interface HlsVideoProps {
  src: string;
  title: string;
  playerRef: RefObject<HTMLIFrameElement | HTMLVideoElement | null>;
  /** Asks for a fresh playback address before the player loads again. */
  onReload: () => void;
}

/**
 * The relayed HLS stream: hls.js (loaded only when a player needs it) where the browser has Media Source
 * Extensions, the browser's own HLS otherwise. While it loads or after a failure it shows 'Loading Stream'
 * and retries. hls.js plays a relayed stream at its own pace, never faster: a viewer left far behind the live
 * edge (a pause, a phone that froze) is taken back to it (`rejoinLiveEdge`).
 */
export function HlsVideo({ src, title, playerRef, onReload }: HlsVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const reload = useRef(onReload);
  reload.current = onReload;

  useEffect(() => {
    const video = videoRef.current!;
    let stopped = false;
    let destroy = () => {};
    let retry: ReturnType<typeof setTimeout> | undefined;
    const fail = () => {
      if (stopped) return;
      stopped = true;
      setPlaying(false);
      destroy();
      reload.current();
      retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
    };
    if (hasMediaSource()) {
      loadHls().then(({ default: Hls }) => {
        if (stopped) return;
        const hls = new Hls();
        const rejoin = setInterval(() => {
          if (!video.paused && !video.seeking) rejoinLiveEdge(hls, video);
        }, REJOIN_CHECK_MS);
        destroy = () => {
          clearInterval(rejoin);
          hls.destroy();
        };
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) fail();
        });
        hls.on(Hls.Events.MANIFEST_PARSED, () => void playWithSound(video));
        hls.loadSource(src);
        hls.attachMedia(video);
      }, fail);
    } else {
      video.addEventListener("error", fail);
      video.src = src;
      destroy = () => {
        video.removeEventListener("error", fail);
        video.removeAttribute("src");
        video.load();
      };
      void playWithSound(video);
    }
    return () => {
      stopped = true;
      clearTimeout(retry);
      destroy();
    };
  }, [src, attempt]);

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
        onPlaying={() => setPlaying(true)}
      />
      {playing ? null : <StreamLoading overlay />}
    </>
  );
}
