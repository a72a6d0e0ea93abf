import type { LivestreamSettings } from "@contracts/settings";
import { LoadFailed } from "@/components/admin/load-failed";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { SettingsIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useAdminLivestreamSettings } from "../api/livestream-settings";
import { FakeViewersCard } from "./fake-viewers-card";
import { NightCard } from "./night-card";
import { ReplayCard } from "./replay-card";
import { SettingsForm } from "./settings-form";
import { StreamSourceCard } from "./stream-source-card";

/** Livestream settings of the event, the thumbnail and the fake viewers. */
export function SettingsPage() {
  const settings = useAdminLivestreamSettings();
  useQueryErrorToast(settings, "Failed to fetch livestream settings.");
  return (
    <>
      <AdminPageHeader
        title="Settings"
        description="The night and its phases, the event, its thumbnail, price and organiser, the fake viewers, the stream source and the replay."
      />
      {settings.data ? (
        <Loaded settings={settings.data} />
      ) : settings.isError ? (
        <section className="card panel">
          <LoadFailed icon={<SettingsIcon />} title="The settings could not be loaded" onRetry={() => void settings.refetch()} />
        </section>
      ) : (
        <PageLoader label="Loading settings…" />
      )}
    </>
  );
}

function Loaded({ settings }: { settings: LivestreamSettings }) {
  return (
    <div className="settings-page-cards">
      {/* Its own actions and save: where the night stands, and what happens at its end. */}
      <NightCard settings={settings} />
      <SettingsForm settings={settings} aside={<FakeViewersCard initialEnabled={settings.fakeViewersEnabled} initialTarget={settings.fakeViewersTarget} />} />
      {/* Its own form: it saves apart from the settings above. */}
      <StreamSourceCard />
      {/* Its own form too: whether and until when the night is offered again. */}
      <ReplayCard settings={settings} />
    </div>
  );
}
