import { useSignals } from "@preact/signals-react/runtime";
import type { CSSProperties, RefObject } from "react";
import { HeartIcon } from "@/components/ui/icons";
import type { LiveStore } from "../stores/live-store";

interface StreamPlayerProps {
  embedUrl: string;
  title: string;
  frameRef: RefObject<HTMLIFrameElement | null>;
  store: LiveStore;
}

/** The embedded player, or the loading card until the settings give an embed URL; hearts float over it. */
export function StreamPlayer({ embedUrl, title, frameRef, store }: StreamPlayerProps) {
  return (
    <div className={embedUrl ? "stream-player stream-player-frame" : "stream-player"}>
      {embedUrl ? (
        <iframe
          ref={frameRef}
          src={embedUrl}
          title={`${title} – live stream`}
          allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <div className="stream-player-loading" role="status">
          <div className="spinner" aria-hidden="true" />
          <p className="stream-player-title">Loading Stream</p>
          <p className="stream-player-text">Please wait...</p>
        </div>
      )}
      <FloatingHearts store={store} />
    </div>
  );
}

function FloatingHearts({ store }: { store: LiveStore }) {
  useSignals();
  return (
    <div className="hearts-layer" aria-hidden="true">
      {store.hearts.value.map((heart) => (
        <span
          key={heart.id}
          className="floating-heart"
          style={{ "--x": heart.x, "--sway": `${heart.sway}px`, "--scale": heart.scale } as CSSProperties}
        >
          <HeartIcon />
        </span>
      ))}
    </div>
  );
}
