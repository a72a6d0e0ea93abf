import { importFresh } from "./app-version";

/**
 * Which way this browser plays HLS, and hls.js itself: small, so the stream page can tell, as soon as it
 * knows its source, whether to fetch hls.js alongside the player's own code rather than after it.
 */

const HLS_TYPE = "application/vnd.apple.mpegurl";

/** Media Source Extensions, or the managed kind an iPhone has. */
export const hasMediaSource = () => "MediaSource" in window || "ManagedMediaSource" in window;

/** How the browser plays a live stream: hls.js, its own player (only where it has no MediaSource, as on an iPhone), or not at all. */
export function liveHlsEngine(video: Pick<HTMLVideoElement, "canPlayType">): "hls.js" | "native" | "none" {
  if ("MediaSource" in window) return "hls.js";
  if (video.canPlayType(HLS_TYPE) !== "") return "native";
  return "ManagedMediaSource" in window ? "hls.js" : "none";
}

/** hls.js (its light build), fetched the first time a player needs it. */
export const loadHls = () => importFresh(() => import("hls.js/light"));
