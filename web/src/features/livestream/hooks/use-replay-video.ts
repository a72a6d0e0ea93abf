import { useEffect, useRef, useState, type RefObject } from "react";
import { liveHlsEngine, loadHls } from "@/lib/hls-engine";
import { playWithSound } from "@/lib/live-hls";
import { playlistSegments, wallClockAt, type TimedSegment } from "../utils/replay-clock";

export type ReplayVideoState =
  /** The playlist and the first frames are on their way. */
  | "loading"
  /** The video is shown: it plays, or waits for the viewer's click where the browser refuses autoplay. */
  | "ready"
  /** The replay could not be loaded (the viewer may try again). */
  | "failed"
  /** The browser has neither Media Source Extensions nor its own HLS. */
  | "unsupported";

interface ReplayVideo {
  state: ReplayVideoState;
  /** Loads the replay again after a failure. */
  retry: () => void;
}

/** Safari's own HLS says when the playlist's first frame was filmed. */
const startDateOf = (video: HTMLVideoElement): number | null => {
  const date = (video as HTMLVideoElement & { getStartDate?: () => Date }).getStartDate?.();
  const ms = date?.getTime();
  return ms !== undefined && Number.isFinite(ms) ? ms + video.currentTime * 1000 : null;
};

/**
 * Plays the replay's VOD playlist into the video while mounted: hls.js (loaded only now) where the browser has
 * Media Source Extensions, its own HLS where it has not, as the live player does; seekable. `onClock` hears,
 * as the video plays and whenever it is moved, which moment of the night it shows (ms since the epoch).
 */
export function useReplayVideo(videoRef: RefObject<HTMLVideoElement | null>, src: string, onClock: (at: number | null) => void, onFailed?: () => void): ReplayVideo {
  const [state, setState] = useState<ReplayVideoState>("loading");
  const [attempt, setAttempt] = useState(0);
  const clockListener = useRef(onClock);
  clockListener.current = onClock;
  const failedListener = useRef(onFailed);
  failedListener.current = onFailed;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const engine = liveHlsEngine(video);
    if (engine === "none") {
      setState("unsupported");
      return;
    }
    setState("loading");
    let stopped = false;
    let release = () => {};
    /** Lets go of the player, once. */
    const destroy = () => {
      const letGo = release;
      release = () => {};
      letGo();
    };
    let clock: () => number | null = () => null;
    const tick = () => {
      if (!stopped) clockListener.current(clock());
    };
    const ready = () => {
      if (!stopped) setState("ready");
    };
    const fail = () => {
      if (stopped) return;
      stopped = true;
      destroy();
      setState("failed");
      clockListener.current(null);
      // The replay's window may have closed meanwhile: the page asks again what there is to play.
      failedListener.current?.();
    };
    const moments = ["timeupdate", "seeking", "seeked", "loadedmetadata"] as const;
    for (const name of moments) video.addEventListener(name, tick);
    video.addEventListener("loadeddata", ready);

    if (engine === "native") {
      // The segments' dates from the playlist itself; without them, the start the browser read from it.
      let segments: TimedSegment[] = [];
      clock = () => (segments.length > 0 ? wallClockAt(segments, video.currentTime) : startDateOf(video));
      const reading = new AbortController();
      fetch(src, { credentials: "same-origin", cache: "no-store", signal: reading.signal })
        .then((response) => (response.ok ? response.text() : ""))
        .then((text) => {
          segments = playlistSegments(text);
          tick();
        })
        .catch(() => {});
      video.addEventListener("error", fail);
      video.src = src;
      release = () => {
        reading.abort();
        video.removeEventListener("error", fail);
        video.removeAttribute("src");
        video.load();
      };
      void playWithSound(video);
    } else {
      loadHls().then(({ default: Hls }) => {
        if (stopped) return;
        const hls = new Hls();
        release = () => hls.destroy();
        clock = () => {
          const details = hls.levels[Math.max(0, hls.currentLevel)]?.details;
          return (details ? wallClockAt(details.fragments, video.currentTime) : null) ?? hls.playingDate?.getTime() ?? null;
        };
        let recovered = false;
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          // A decoding hiccup is worth one recovery; anything else (or a second one) is a failure.
          if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
            recovered = true;
            hls.recoverMediaError();
            return;
          }
          fail();
        });
        hls.on(Hls.Events.MANIFEST_PARSED, () => void playWithSound(video));
        hls.on(Hls.Events.LEVEL_LOADED, tick);
        hls.loadSource(src);
        hls.attachMedia(video);
      }, fail);
    }

    return () => {
      stopped = true;
      for (const name of moments) video.removeEventListener(name, tick);
      video.removeEventListener("loadeddata", ready);
      destroy();
    };
  }, [videoRef, src, attempt]);

  return { state, retry: () => setAttempt((n) => n + 1) };
}
