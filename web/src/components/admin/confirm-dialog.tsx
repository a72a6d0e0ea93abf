import type { ReactNode } from "react";
import { AlertIcon } from "@/components/ui/site-icons";
import { AdminDialog } from "./admin-dialog";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  icon?: ReactNode;
}

/** Asks before an action that cannot be undone from here (revoke, reset a device, unban). */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, pendingLabel, pending, onConfirm, icon }: ConfirmDialogProps) {
  return (
    <AdminDialog open={open} onOpenChange={onOpenChange} title={title} description={description} icon={icon ?? <AlertIcon />} tone="danger">
      <div className="admin-dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </button>
      </div>
    </AdminDialog>
  );
}
