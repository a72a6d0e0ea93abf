import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { BanIcon } from "@/components/ui/icons";

/** Users banned from the chat. */
export function BannedUsersPage() {
  return (
    <>
      <AdminPageHeader title="Banned Users" description="People banned from the chat, and unbanning them." />
      <section className="card panel">
        <EmptyState icon={<BanIcon />} title="Nobody is banned">
          Users banned from the chat are listed here, where you can unban them.
        </EmptyState>
      </section>
    </>
  );
}
