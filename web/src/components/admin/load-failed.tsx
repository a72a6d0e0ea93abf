import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";

/** In place of a list or form whose data failed to load (the toast has said why): a retry button. */
export function LoadFailed({ icon, title, onRetry }: { icon: ReactNode; title: string; onRetry: () => void }) {
  return (
    <EmptyState icon={icon} title={title}>
      <button type="button" className="btn btn-outline" onClick={onRetry}>
        Try again
      </button>
    </EmptyState>
  );
}
