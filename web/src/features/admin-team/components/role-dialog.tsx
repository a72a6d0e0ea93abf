import { useEffect, useState, type FormEvent } from "react";
import { ROLE_LABELS, type Role, type TeamMember } from "@contracts/team";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { Alert } from "@/components/ui/alert";
import { UserCheckIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { serverErrorMessage } from "@/lib/api-client";
import { useSetRole } from "../api/team";
import { RoleChoices } from "./role-choices";

/** Changes a member's role; the server's refusal (the last owner, say) is shown in the dialog. */
export function RoleDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const setRole = useSetRole();
  const [role, setChoice] = useState<Role>(member?.role ?? "moderator");
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (member) {
      setChoice(member.role);
      setFailure(null);
    }
  }, [member]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!member) return;
    if (role === member.role) return onClose();
    setFailure(null);
    setRole.mutate(
      { id: member.id, role },
      {
        onSuccess: (changed) => {
          toast({ title: "Role changed", description: `${changed.username} is now ${ROLE_LABELS[changed.role].toLowerCase()}.` });
          onClose();
        },
        onError: (error) => setFailure(serverErrorMessage(error) ?? "Could not change the role. Try again."),
      },
    );
  };

  return (
    <AdminDialog
      open={member !== null}
      onOpenChange={(open) => !open && onClose()}
      title={member?.isYou ? "Change your role" : `Change ${member?.username ?? ""}'s role`}
      description={member?.isYou ? "Careful: giving up owner takes the Team and Audit screens from you." : "The new role applies from their next click."}
      icon={<UserCheckIcon />}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <RoleChoices value={role} onChange={setChoice} name="member-role" />
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={setRole.isPending}>
            {setRole.isPending ? "Saving..." : "Save Role"}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}
