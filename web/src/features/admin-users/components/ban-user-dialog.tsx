import { useEffect, useState, type FormEvent } from "react";
import { TEXT_LIMITS } from "@contracts/text-limits";
import type { UserRecord } from "@contracts/admin-panel";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { FormField } from "@/components/ui/form-field";
import { BanIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { useBanUser } from "../api/ban-user";

/** Confirms a ban from the Users screen, with an optional reason shown on Banned Users. */
export function BanUserDialog({ user, onOpenChange }: { user: UserRecord | null; onOpenChange: (open: boolean) => void }) {
  const ban = useBanUser();
  const [reason, setReason] = useState("");
  useEffect(() => {
    if (user) setReason("");
  }, [user]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    ban.mutate(
      { id: user.id, reason },
      {
        onSuccess: () => {
          toast({ title: "User Banned", description: `${user.username} is locked out of the stream and the chat.` });
          onOpenChange(false);
        },
      },
    );
  };

  return (
    <AdminDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title={`Ban ${user?.username ?? ""}?`}
      description="They are locked out of the stream and the chat at once, under this name and with their access code. Unban them on Banned Users."
      icon={<BanIcon />}
      tone="danger"
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormField
          label="Reason (optional)"
          autoComplete="off"
          maxLength={TEXT_LIMITS.reason}
          placeholder="Sharing the stream link"
          hint="Shown on Banned Users."
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={ban.isPending}>
            <BanIcon />
            {ban.isPending ? "Banning..." : "Ban"}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}
