import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { CloseIcon } from "@/components/ui/site-icons";

interface AdminDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  icon?: ReactNode;
  tone?: "default" | "danger";
  children: ReactNode;
}

/** A modal of the admin panel: a titled card over a dimmed page, closed by Escape, the X or the caller. */
export function AdminDialog({ open, onOpenChange, title, description, icon, tone = "default", children }: AdminDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="admin-dialog-overlay" />
        <Dialog.Content className="admin-dialog card card-blood" data-tone={tone}>
          <div className="admin-dialog-head">
            {icon ? (
              <span className="admin-dialog-icon" aria-hidden="true">
                {icon}
              </span>
            ) : null}
            <div className="admin-dialog-heading">
              <Dialog.Title className="admin-dialog-title">{title}</Dialog.Title>
              <Dialog.Description className="admin-dialog-description">{description}</Dialog.Description>
            </div>
          </div>
          {children}
          <Dialog.Close className="btn btn-ghost btn-icon admin-dialog-close" aria-label="Close">
            <CloseIcon />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
