import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { KeyIcon } from "@/components/ui/icons";

/** Access codes: list, search, generate, send and copy. */
export function AccessCodesPage() {
  return (
    <>
      <AdminPageHeader title="Access Codes" description="Generate codes, send them by e-mail and copy them." />
      <section className="card panel">
        <EmptyState icon={<KeyIcon />} title="No access codes yet">
          Every code bought or generated for this event is listed here.
        </EmptyState>
      </section>
    </>
  );
}
