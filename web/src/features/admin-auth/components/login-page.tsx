import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation } from "wouter";
import { loginBody, type LoginBody } from "@contracts/admin";
import type { AdminProfile, SecondFactorKind } from "@contracts/team";
import { FormField } from "@/components/ui/form-field";
import { Alert } from "@/components/ui/alert";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { loginFailure, useAdminSession, useFirstAdminStatus, useLogin } from "@/lib/admin-auth";
import { AuthPanel } from "./auth-panel";
import { SecondFactorForm } from "./second-factor-form";

/** Admin sign-in: the password, then a second factor where the account has one; on a fresh install it points to the first-admin setup instead. */
export function LoginPage() {
  const [, navigate] = useLocation();
  const firstAdmin = useFirstAdminStatus();
  const session = useAdminSession();
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<{ username: string; kinds: SecondFactorKind[] } | null>(null);
  const form = useForm<LoginBody>({ resolver: zodResolver(loginBody), defaultValues: { username: "", password: "" } });
  const { errors } = form.formState;

  const enter = (profile: AdminProfile) => {
    if (profile.mustEnrol) {
      toast({ title: "Set up two-factor sign-in", description: "Your team requires it before you can use the panel." });
      navigate(paths.admin.security);
      return;
    }
    toast({ title: "Login successful", description: `Welcome back, ${profile.username}.` });
    navigate(paths.admin.dashboard);
  };

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    login.mutate(values, {
      onSuccess: ({ answer, profile }) => {
        if (profile) return enter(profile);
        form.resetField("password");
        setChallenge({ username: values.username.trim(), kinds: answer.secondFactor ?? [] });
      },
      onError: (error) => setFailure(loginFailure(error)),
    });
  });

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (session.data) navigate(paths.admin.dashboard, { replace: true });
  }, [session.data, navigate]);

  if (firstAdmin.data?.needsFirstAdmin) {
    return (
      <AuthPanel title="Admin Login" subtitle="Sign in to run the event.">
        <div className="auth-notice">
          <Alert title="No admin account exists yet">Create the first administrator to set up the event.</Alert>
          <Link href={paths.admin.createFirstAdmin} className="btn btn-primary btn-block">
            Create First Admin
          </Link>
        </div>
      </AuthPanel>
    );
  }

  if (challenge) {
    return (
      <AuthPanel title="Two-Factor Sign-In" subtitle="One more step to prove it's you.">
        <SecondFactorForm
          username={challenge.username}
          kinds={challenge.kinds}
          onSignedIn={enter}
          onEnded={(message) => {
            setChallenge(null);
            setFailure(message);
          }}
        />
        <button type="button" className="auth-alternative auth-start-over" onClick={() => setChallenge(null)}>
          ← Sign in as someone else
        </button>
      </AuthPanel>
    );
  }

  return (
    <AuthPanel title="Admin Login" subtitle="Sign in to run the event.">
      <form className="form" onSubmit={onSubmit} noValidate>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <FormField label="Username" autoComplete="username" autoCapitalize="none" spellCheck={false} error={errors.username?.message} {...form.register("username")} />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={TEXT_LIMITS.password}
          error={errors.password?.message}
          {...form.register("password")}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Log In"}
        </button>
      </form>
    </AuthPanel>
  );
}
