import { DEFAULT_EVENT_TITLE } from "@/config/event";
import { thumbnailOf, useLivestreamSettings } from "@/lib/livestream-settings";
import { ThumbnailBanner } from "./thumbnail-banner";
import "./home.css";

/** The landing page: the event's banner and title. */
export function HomePage() {
  const settings = useLivestreamSettings();
  const title = settings.data?.eventTitle || DEFAULT_EVENT_TITLE;
  return (
    <div className="page home">
      <ThumbnailBanner src={thumbnailOf(settings.data)} title={title} loading={settings.isPending} />
      <section className="home-intro" aria-labelledby="home-title">
        <p className="eyebrow">One night · One stream · No way out</p>
        <h1 id="home-title" className="display home-title">
          {title}
        </h1>
        <span className="drip" aria-hidden="true" />
        <p className="home-tagline">
          A live broadcast from somewhere you should never go. Get your pass, pick the name the others will see, and watch it unfold
          with everyone else brave enough to stay.
        </p>
      </section>
    </div>
  );
}
