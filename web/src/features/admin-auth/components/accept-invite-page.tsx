import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useParams } from "wouter";
import { acceptInviteBody, ROLE_LABELS, ROLE_SUMMARIES } from "@contracts/team";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { PageLoader } from "@/components/ui/page-loader";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { serverErrorMessage } from "@/lib/api-client";
import { useAcceptInvite, useInvite, type AcceptInviteBody } from "../api/invite";
import { AuthPanel } from "./auth-panel";

/** An invite link: who it is for and as what; a username and password join the team and open the panel. */
export function AcceptInvitePage() {
  const { token = "" } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const invite = useInvite(token);
  const accept = useAcceptInvite(token);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AcceptInviteBody>({ resolver: zodResolver(acceptInviteBody), defaultValues: { username: "", password: "" } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    accept.mutate(values, {
      onSuccess: (profile) => {
        if (profile.mustEnrol) {
          toast({ title: "Welcome to the team", description: "Set up two-factor sign-in to start: the team requires it." });
          navigate(paths.admin.security, { replace: true });
        } else {
          toast({ title: "Welcome to the team", description: `You are signed in as ${profile.username}.` });
          navigate(paths.admin.dashboard, { replace: true });
        }
      },
      onError: (error) => setFailure(serverErrorMessage(error) ?? "Could not join the team. Please try again."),
    });
  });

  if (invite.isPending) {
    return (
      <AuthPanel title="Join the Team" subtitle="Checking your invite…">
        <PageLoader label="Checking your invite…" />
      </AuthPanel>
    );
  }

  if (invite.isError) {
    // The server's answer already says what to do (ask an owner for a new link); a failed check does not.
    const refusal = serverErrorMessage(invite.error);
    return (
      <AuthPanel title="Join the Team" subtitle="This invite cannot be used.">
        <div className="auth-notice">
          <Alert variant="error" title="Invite not valid">
            {refusal ?? "The invite could not be checked. Please try again."}
          </Alert>
          {refusal ? null : <p className="auth-step-note">If it keeps failing, ask an owner of the team for a new invite.</p>}
          <Link href={paths.admin.login} className="btn btn-outline btn-block">
            Go to Login
          </Link>
        </div>
      </AuthPanel>
    );
  }

  const { email, role } = invite.data;
  return (
    <AuthPanel title="Join the Team" subtitle="You have been invited to help run the event.">
      <dl className="auth-invite">
        <div>
          <dt>Invited</dt>
          <dd>{email}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>
            <span className="auth-invite-role">{ROLE_LABELS[role]}</span>
            <span className="auth-invite-summary">{ROLE_SUMMARIES[role]}</span>
          </dd>
        </div>
      </dl>
      <form className="form" onSubmit={onSubmit} noValidate>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <FormField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={TEXT_LIMITS.adminUsername}
          hint="What the team and the audit log know you by."
          error={errors.username?.message}
          {...form.register("username")}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          maxLength={TEXT_LIMITS.password}
          hint="At least 6 characters."
          error={errors.password?.message}
          {...form.register("password")}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={accept.isPending}>
          {accept.isPending ? "Joining..." : "Join the Team"}
        </button>
      </form>
    </AuthPanel>
  );
}
