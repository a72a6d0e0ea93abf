import { useState, type FormEvent } from "react";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { inviteBody, ROLE_LABELS, type Role } from "@contracts/team";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { CopyIcon, MailIcon } from "@/components/ui/icons";
import { serverErrorMessage } from "@/lib/api-client";
import { copyText } from "@/lib/clipboard";
import { formatDateTime } from "@/lib/dates";
import { useInvite } from "../api/team";
import { RoleChoices } from "./role-choices";

/** Invites someone by e-mail with a role; then shows the link (also e-mailed) to copy and pass on. */
export function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const invite = useInvite();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("moderator");
  const [emailError, setEmailError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; role: Role; inviteUrl: string; expiresAt: string } | null>(null);

  const close = (next: boolean) => {
    if (!next) {
      setEmail("");
      setRole("moderator");
      setEmailError(undefined);
      setFailure(null);
      setSent(null);
      invite.reset();
    }
    onOpenChange(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteBody.safeParse({ email, role });
    if (!parsed.success) return setEmailError(parsed.error.issues.find((i) => i.path[0] === "email")?.message);
    setEmailError(undefined);
    setFailure(null);
    invite.mutate(parsed.data, {
      onSuccess: (answer) => setSent({ ...parsed.data, inviteUrl: answer.inviteUrl, expiresAt: answer.expiresAt }),
      onError: (error) => setFailure(serverErrorMessage(error) ?? "Could not send the invite. Try again."),
    });
  };

  return (
    <AdminDialog
      open={open}
      onOpenChange={close}
      title={sent ? "Invite sent" : "Invite a team member"}
      description={
        sent
          ? `${sent.email} was e-mailed a link to join as ${ROLE_LABELS[sent.role].toLowerCase()}. It works once, until ${formatDateTime(sent.expiresAt)}.`
          : "They get an e-mail with a link to choose a username and password."
      }
      icon={<MailIcon />}
    >
      {sent ? (
        <div className="form">
          <div className="field">
            <label className="field-label" htmlFor="team-invite-link">
              Invite link
            </label>
            <div className="team-copy-row">
              <input id="team-invite-link" className="input mono" value={sent.inviteUrl} readOnly spellCheck={false} onFocus={(e) => e.target.select()} />
              <button type="button" className="btn btn-outline" onClick={() => void copyText(sent.inviteUrl, "the invite link")}>
                <CopyIcon />
                Copy
              </button>
            </div>
            <p className="field-hint">Pass it on yourself if the e-mail does not arrive. Anyone with the link can join, so send it only to them.</p>
          </div>
          <div className="admin-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={() => setSent(null)}>
              Invite Another
            </button>
            <button type="button" className="btn btn-primary" onClick={() => close(false)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          {failure ? <Alert variant="error">{failure}</Alert> : null}
          <FormField
            label="E-mail"
            type="email"
            autoComplete="off"
            maxLength={TEXT_LIMITS.email}
            placeholder="name@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={emailError}
          />
          <RoleChoices value={role} onChange={setRole} name="invite-role" />
          <div className="admin-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={() => close(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
              {invite.isPending ? "Sending..." : "Send Invite"}
            </button>
          </div>
        </form>
      )}
    </AdminDialog>
  );
}
