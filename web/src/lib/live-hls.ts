import type Hls from "hls.js";
import { liveHlsEngine, loadHls } from "./hls-engine";
import { blockingReloadUrl, listsPart, mediaPlaylistUrl, nextPart, variantCodecs, videoCodecName } from "./ll-hls-playlist";
import { LIVE_HLS_OPTIONS } from "./hls-options";

/**
 * Plays a Low-Latency HLS stream that a publisher may leave and rejoin (OBS publishing to the built-in
 * ingest): hls.js in low-latency mode where the browser has Media Source Extensions, the browser's own HLS
 * where it has not (Safari on an iPhone). It tells "loading" from "offline" by asking the playlist for its
 * next part, stops the player while the publisher is away and starts it again once parts come.
 */
export type LiveHlsState =
  /** Nothing to show yet, or the stream stopped for a moment. */
  | "loading"
  /** The video is shown: it plays, or waits for the viewer's click where the browser refuses autoplay. */
  | "playing"
  /** The playlist has no new parts: the publisher is not sending. */
  | "offline"
  /** The browser has neither Media Source Extensions nor its own HLS. */
  | "unsupported"
  /** The stream's video is in a codec this browser cannot decode (HEVC or AV1 where it lacks them): `codec` names it. */
  | { codec: string };

/** The state as a word, for the video's `data-state`: a codec the browser cannot decode is "codec". */
export function liveHlsStateName(state: LiveHlsState): string {
  return typeof state === "object" ? "codec" : state;
}

/** Between checks while the stream is offline or cannot be reached (a blocking reload waits as long itself). */
const RETRY_MS = 2500;
/** No progress this long while it should play: the publisher may have left, the playlist is asked again. */
const STALL_MS = 6000;
/** No progress this long: the viewer is told it is loading. */
const BUFFERING_MS = 1500;
/** A player started this recently that fails again waits before the next start, so a broken stream is not hammered. */
const SETTLE_MS = 10_000;

/**
 * Plays, or falls back to muted playback where the browser refuses sound without a click. Resolves "refused"
 * when even muted playback is refused (the video's own play button is then the way), "failed" when the load
 * failed or was cut short.
 */
export async function playWithSound(video: HTMLVideoElement): Promise<"playing" | "refused" | "failed"> {
  try {
    await video.play();
    return "playing";
  } catch (error) {
    // A load that failed or was cut short by a retry rejects too: that is no reason to take the sound away.
    if ((error as Error).name !== "NotAllowedError") return "failed";
  }
  video.muted = true;
  try {
    await video.play();
    return "playing";
  } catch (error) {
    return (error as Error).name === "NotAllowedError" ? "refused" : "failed";
  }
}

/**
 * Where a live player that has fallen too far behind should jump, or null to leave it be. In low-latency mode
 * hls.js plays faster to get back to its target latency, but only while it is less than one target latency and
 * one target duration past it; outside that mode it never does. Further back (a start held up by a busy phone,
 * a tab that froze for a moment, a pause) the player would stay behind for the rest of the night: it then jumps
 * to hls.js's live position, when that is already buffered (no new wait for the viewer).
 */
export function rejoinPosition(player: {
  latency: number;
  targetLatency: number | null;
  targetDuration: number | undefined;
  liveSyncPosition: number | null;
  currentTime: number;
  buffered: Pick<TimeRanges, "length" | "start" | "end">;
}): number | null {
  const { latency, targetLatency, targetDuration, liveSyncPosition, currentTime, buffered } = player;
  if (!targetLatency || !targetDuration || liveSyncPosition === null || liveSyncPosition <= currentTime) return null;
  if (latency - targetLatency < targetLatency + targetDuration) return null;
  for (let i = 0; i < buffered.length; i++) {
    if (buffered.start(i) <= currentTime && liveSyncPosition < buffered.end(i)) return liveSyncPosition;
  }
  return null;
}

/** Takes an hls.js player of a live stream back to its live position when it has fallen too far behind (`rejoinPosition`). */
export function rejoinLiveEdge(hls: Pick<Hls, "latency" | "targetLatency" | "latestLevelDetails" | "liveSyncPosition">, video: HTMLVideoElement): void {
  const details = hls.latestLevelDetails;
  const position = rejoinPosition({
    latency: hls.latency,
    targetLatency: hls.targetLatency,
    targetDuration: details?.live ? details.targetduration : undefined,
    liveSyncPosition: hls.liveSyncPosition,
    currentTime: video.currentTime,
    buffered: video.buffered,
  });
  if (position !== null) video.currentTime = position;
}

type Verdict = "live" | "offline" | "refused" | "failed" | { codec: string };

/**
 * The stream's video codec when Media Source Extensions cannot decode what the playlist names (a browser
 * without HEVC, say), else null. Only asked of Media Source: the browser's own HLS says so by failing.
 */
function undecodable(codecs: string[]): string | null {
  const source = (window as { ManagedMediaSource?: typeof MediaSource }).ManagedMediaSource ?? window.MediaSource;
  if (!source) return null;
  for (const codec of codecs) {
    const name = videoCodecName(codec);
    if (name && !source.isTypeSupported(`video/mp4; codecs="${codec}"`)) return name;
  }
  return null;
}

/** Whether parts are coming: the playlist, then a blocking reload for its next part (answered at once while live). */
async function checkPlaylist(src: string, signal: AbortSignal, engine: ReturnType<typeof liveHlsEngine>): Promise<Verdict> {
  const get = async (url: string) => {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store", signal });
    if (response.status === 503) return "offline" as const;
    if ([401, 403, 404, 410].includes(response.status)) return "refused" as const;
    if (!response.ok) return "failed" as const;
    return response.text();
  };
  try {
    const base = window.location.href;
    let url = src;
    let text = await get(url);
    if (typeof text !== "string") return text;
    const media = mediaPlaylistUrl(text, url, base);
    const codec = engine === "hls.js" ? undecodable(variantCodecs(text)) : null;
    if (codec) return { codec };
    if (media) {
      url = media;
      text = await get(url);
      if (typeof text !== "string") return text;
    }
    const next = nextPart(text);
    if (!next) return "offline";
    const answer = await get(blockingReloadUrl(url, next, base));
    if (typeof answer !== "string") return answer;
    return listsPart(answer, next) ? "live" : "offline";
  } catch {
    return "failed";
  }
}

interface LiveHlsOptions {
  onState: (state: LiveHlsState) => void;
  /** The address was refused or is gone: the caller may fetch a fresh one. */
  onRefused?: () => void;
}

/** Plays `src` into `video` until the returned function is called. */
export function playLiveHls(video: HTMLVideoElement, src: string, { onState, onRefused }: LiveHlsOptions): () => void {
  const engine = liveHlsEngine(video);
  let state: LiveHlsState | null = null;
  let stopped = false;
  let attached = false;
  /** Counts starts, so a start overtaken by a restart while hls.js loads does nothing. */
  let starts = 0;
  let detach = () => {};
  /** Jumps back to the live position when the player has fallen further behind than hls.js catches up by itself. */
  let rejoin = () => {};
  let retry: ReturnType<typeof setTimeout> | undefined;
  let checking: AbortController | null = null;
  let startedAt = 0;
  let lastTime = -1;
  let lastProgressAt = 0;

  const set = (next: LiveHlsState) => {
    const same = next === state || (typeof next === "object" && typeof state === "object" && state !== null && next.codec === state.codec);
    if (stopped || same) return;
    state = next;
    onState(next);
  };

  const check = async () => {
    checking = new AbortController();
    const verdict = await checkPlaylist(src, checking.signal, engine);
    checking = null;
    if (stopped) return;
    if (verdict === "live") return attach();
    // A stream the browser cannot decode is looked at again all the same: the streamer may change its codec.
    set(typeof verdict === "object" ? verdict : verdict === "offline" ? "offline" : "loading");
    if (verdict === "refused") onRefused?.();
    retry = setTimeout(() => void check(), RETRY_MS);
  };

  /** The player failed or stalled: it stops, and starts again once the playlist says parts are coming. */
  const restart = () => {
    if (stopped) return;
    attached = false;
    starts++;
    detach();
    detach = () => {};
    rejoin = () => {};
    clearTimeout(retry);
    if (state === "playing") set("loading");
    const wait = Math.max(0, startedAt + SETTLE_MS - Date.now());
    retry = setTimeout(() => void check(), Math.min(wait, RETRY_MS));
  };

  const begin = () => {
    void playWithSound(video).then((result) => {
      // Autoplay refused even muted: the video's own play button is shown instead of the loading card.
      if (result === "refused" && attached) set("playing");
    });
  };

  const attach = async () => {
    attached = true;
    const start = ++starts;
    set("loading");
    startedAt = Date.now();
    lastTime = -1;
    lastProgressAt = Date.now();
    if (engine === "native") {
      video.addEventListener("error", restart);
      video.src = src;
      detach = () => {
        video.removeEventListener("error", restart);
        video.removeAttribute("src");
        video.load();
      };
      begin();
      return;
    }
    try {
      const { default: Hls } = await loadHls();
      if (start !== starts) return;
      const hls = new Hls({ ...LIVE_HLS_OPTIONS });
      detach = () => hls.destroy();
      rejoin = () => rejoinLiveEdge(hls, video);
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) restart();
      });
      hls.on(Hls.Events.MANIFEST_PARSED, begin);
      hls.loadSource(src);
      hls.attachMedia(video);
    } catch {
      if (start === starts) restart();
    }
  };

  // Watches the position: playing once it moves, loading when it stops, a fresh start when it stays stopped.
  const onPlaying = () => {
    lastProgressAt = Date.now();
    set("playing");
  };
  const watchdog = setInterval(() => {
    const now = Date.now();
    if (video.paused || video.seeking || document.hidden || !attached) {
      lastProgressAt = now;
      return;
    }
    if (video.currentTime !== lastTime) {
      lastTime = video.currentTime;
      lastProgressAt = now;
      if (video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) set("playing");
      rejoin();
      return;
    }
    if (now - lastProgressAt > STALL_MS) restart();
    else if (now - lastProgressAt > BUFFERING_MS && state === "playing") set("loading");
  }, 500);
  video.addEventListener("playing", onPlaying);

  if (engine === "none") set("unsupported");
  else {
    set("loading");
    void check();
  }

  return () => {
    stopped = true;
    attached = false;
    starts++;
    clearTimeout(retry);
    clearInterval(watchdog);
    checking?.abort();
    video.removeEventListener("playing", onPlaying);
    detach();
  };
}
