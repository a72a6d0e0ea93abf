import { useEffect, useRef, useState, type RefObject } from "react";
import { playLiveHls, type LiveHlsState } from "@/lib/live-hls";

/** Plays a live LL-HLS address into the video while mounted; says whether it plays, loads or the stream is offline. */
export function useLiveHls(videoRef: RefObject<HTMLVideoElement | null>, src: string, onRefused?: () => void): LiveHlsState {
  const [state, setState] = useState<LiveHlsState>("loading");
  const refused = useRef(onRefused);
  refused.current = onRefused;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    return playLiveHls(video, src, { onState: setState, onRefused: () => refused.current?.() });
  }, [videoRef, src]);

  return state;
}
