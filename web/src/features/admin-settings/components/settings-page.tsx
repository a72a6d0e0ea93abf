import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { SettingsIcon } from "@/components/ui/icons";

/** Livestream settings of the event. */
export function SettingsPage() {
  return (
    <>
      <AdminPageHeader title="Settings" description="The event title, thumbnail, stream, donation goal and start date." />
      <section className="card panel">
        <EmptyState icon={<SettingsIcon />} title="Event settings">
          The event's title, thumbnail, embed URL, donation goal, start date and fake viewers are set here.
        </EmptyState>
      </section>
    </>
  );
}
