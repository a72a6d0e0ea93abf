import { useState } from "react";
import { BANNER_SIZES, DEFAULT_THUMBNAIL_SRCSET, DEFAULT_THUMBNAIL_URL } from "@/config/event";

/** The event's banner image, falling back to the default thumbnail when the set one fails to load. */
export function ThumbnailBanner({ src, title, loading }: { src: string; title: string; loading: boolean }) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = failed === src ? DEFAULT_THUMBNAIL_URL : src;
  return (
    <figure className="home-banner">
      {loading ? (
        <div className="home-banner-skeleton" aria-hidden="true" />
      ) : (
        <img
          className="home-banner-img"
          src={shown}
          // The default comes in two widths (a phone takes the smaller); the server preloads the same choice.
          srcSet={shown === DEFAULT_THUMBNAIL_URL ? DEFAULT_THUMBNAIL_SRCSET : undefined}
          sizes={shown === DEFAULT_THUMBNAIL_URL ? BANNER_SIZES : undefined}
          alt={`${title} — event banner`}
          width={1280}
          height={720}
          fetchPriority="high"
          onError={() => setFailed(src)}
        />
      )}
    </figure>
  );
}
