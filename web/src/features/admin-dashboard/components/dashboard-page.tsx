import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { DashboardIcon } from "@/components/ui/icons";

/** The admin overview: stats of the event. */
export function DashboardPage() {
  return (
    <>
      <AdminPageHeader title="Dashboard" description="How the event is doing right now." />
      <section className="card panel">
        <EmptyState icon={<DashboardIcon />} title="No stats yet">
          Viewers, access codes and donations show up here once the event is under way.
        </EmptyState>
      </section>
    </>
  );
}
