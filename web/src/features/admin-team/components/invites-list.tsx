import { useState } from "react";
import type { TeamView } from "@contracts/team";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { MailIcon, TrashIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { formatDateTime } from "@/lib/dates";
import { useRevokeInvite } from "../api/team";
import { RoleBadge } from "./role-choices";

type Invite = TeamView["invites"][number];

/** Invites not used yet: who, as what, sent by whom, until when; each can be revoked. */
export function InvitesList({ invites }: { invites: Invite[] }) {
  const revoke = useRevokeInvite();
  const [revoking, setRevoking] = useState<Invite | null>(null);
  return (
    <>
      <ul className="team-invites" aria-label="Open invites">
        {invites.map((invite) => (
          <li key={invite.id} className="team-invite">
            <div className="team-invite-text">
              <span className="team-invite-email">{invite.email}</span>
              <span className="team-invite-meta">
                <RoleBadge role={invite.role} />
                <span className="cell-sub">
                  by {invite.createdBy} · until {formatDateTime(invite.expiresAt)}
                </span>
              </span>
            </div>
            <button type="button" className="btn btn-ghost btn-sm btn-icon" onClick={() => setRevoking(invite)} aria-label={`Revoke the invite for ${invite.email}`} title="Revoke">
              <TrashIcon />
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this invite?"
        description={revoking ? `The link sent to ${revoking.email} stops working.` : ""}
        confirmLabel="Revoke Invite"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        icon={<MailIcon />}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast({ title: "Invite revoked", description: `The link sent to ${revoking.email} no longer works.` });
              setRevoking(null);
            },
          })
        }
      />
    </>
  );
}
