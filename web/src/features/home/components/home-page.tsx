import { EventActions } from "@/components/ui/event-actions";
import { DEFAULT_EVENT_TITLE } from "@/config/event";
import { thumbnailOf, useLivestreamSettings } from "@/lib/livestream-settings";
import { BuyAccessCard } from "./buy-access-card";
import { EventSchedule } from "./event-schedule";
import { LandingEntryForm } from "./landing-entry-form";
import { ThumbnailBanner } from "./thumbnail-banner";

/** The landing page: banner, countdown, the pass on sale, and the way in for code holders. */
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
          A live broadcast from somewhere you should never go. Get your pass, pick the name the others will see, and watch it unfold with everyone else brave enough to stay.
        </p>
      </section>
      <EventSchedule />
      <EventActions />
      <div className="home-entry">
        <BuyAccessCard />
        <div className="home-or-divider" role="separator" aria-label="or">
          <span>OR</span>
        </div>
        <section className="card panel home-entry-card" aria-labelledby="entry-title">
          <p className="eyebrow">Already have a code?</p>
          <h2 id="entry-title" className="home-entry-title">
            Step inside
          </h2>
          <p className="home-entry-lead">Enter the code you were given and the name you want in the chat.</p>
          <LandingEntryForm />
        </section>
      </div>
    </div>
  );
}
