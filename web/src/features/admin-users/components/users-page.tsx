import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";

/** Viewers who entered the event with an access code. */
export function UsersPage() {
  return (
    <>
      <AdminPageHeader title="Users" description="Everyone who has entered the event." />
      <section className="card panel">
        <EmptyState icon={<UsersIcon />} title="No users yet">
          Viewers appear here once they enter the stream with an access code.
        </EmptyState>
      </section>
    </>
  );
}
