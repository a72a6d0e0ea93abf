import { useEffect, useRef, useState } from "react";
import { useLiveHls } from "@/hooks/use-live-hls";
import { liveHlsStateName } from "@/lib/live-hls";
import { usePreviewPlayback } from "../api/ingest";
import { useLivestreamSettings } from "@/lib/livestream-settings";

const PREVIEW_TITLE = "Preview";

/**
 * A small muted player of what viewers see, started while OBS is live. The page's security policy is set
 * when it loads, for the source of that moment: after switching to the built-in ingest the preview may need
 * the page loaded again, and says so.
 */
export function IngestPreview({ live }: { live: boolean }) {
  const playback = usePreviewPlayback(live);
  const phase = useLivestreamSettings().data?.phase;
  // Before the doors open (or after the night), what OBS sends reaches no one but this panel.
  const rehearsal = phase === "upcoming" || phase === "ended" || phase === "replay" || phase === "closed";
  const url = playback.data?.kind === "ingest" ? playback.data.url : "";
  let note: string | null = null;
  if (!live) note = "The preview starts when OBS does.";
  else if (playback.isError) note = "The preview could not be loaded.";
  return (
    <figure className="settings-ingest-preview" aria-label={PREVIEW_TITLE} data-rehearsal={(live && rehearsal) || undefined}>
      <div className="settings-ingest-preview-frame">
        {live && url ? <PreviewVideo src={url} /> : <p className="settings-ingest-preview-note">{note ?? "Loading the preview…"}</p>}
      </div>
      {live && rehearsal ? (
        <p className="settings-ingest-rehearsal" role="status">
          {phase === "upcoming"
            ? "Viewers don't see this: it is a rehearsal. It stays out of the replay unless you keep it on the Recordings screen; open the doors in The night card to go live."
            : "Viewers don't see this: the night is over. It stays out of the replay unless you keep it on the Recordings screen."}
        </p>
      ) : null}
      <figcaption className="settings-ingest-preview-caption">{live && rehearsal ? "Preview · muted · only you see this" : "Preview · muted · what viewers see"}</figcaption>
    </figure>
  );
}

function PreviewVideo({ src }: { src: string }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useLiveHls(videoRef, src);
  const blocked = usePolicyBlocksMedia();
  return (
    <>
      <video ref={videoRef} className="settings-ingest-preview-video" title="Stream preview" muted playsInline controls data-state={liveHlsStateName(state)} />
      {blocked ? (
        <div className="settings-ingest-preview-note settings-ingest-preview-overlay">
          <p>This page was opened before the switch to the built-in ingest: load it again to see the preview.</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => window.location.reload()}>
            Reload page
          </button>
        </div>
      ) : state !== "playing" ? (
        <p className="settings-ingest-preview-note settings-ingest-preview-overlay" role="status">
          {typeof state === "object"
            ? `This browser cannot decode ${state.codec}, and neither can your viewers' browsers that lack it. H.264 plays everywhere.`
            : state === "offline"
              ? "Waiting for the stream…"
              : state === "unsupported"
                ? "This browser cannot play the stream."
                : "Loading the preview…"}
        </p>
      ) : null}
    </>
  );
}

/** Whether the page's Content-Security-Policy refused what the player needs (media or its worker). */
function usePolicyBlocksMedia(): boolean {
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (["media-src", "worker-src"].includes(event.effectiveDirective)) setBlocked(true);
    };
    document.addEventListener("securitypolicyviolation", onViolation);
    return () => document.removeEventListener("securitypolicyviolation", onViolation);
  }, []);
  return blocked;
}
