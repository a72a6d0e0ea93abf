import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation } from "wouter";
import { loginBody, type LoginBody } from "@contracts/admin";
import { FormField } from "@/components/ui/form-field";
import { Alert } from "@/components/ui/alert";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { loginFailure, useAdminSession, useFirstAdminStatus, useLogin } from "@/lib/admin-auth";
import { AuthPanel } from "./auth-panel";

/** Admin sign-in; on a fresh install it points to the first-admin setup instead. */
export function LoginPage() {
  const [, navigate] = useLocation();
  const firstAdmin = useFirstAdminStatus();
  const session = useAdminSession();
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginBody>({ resolver: zodResolver(loginBody), defaultValues: { username: "", password: "" } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    login.mutate(values, {
      onSuccess: (profile) => {
        toast({ title: "Login successful", description: `Welcome back, ${profile.username}.` });
        navigate(paths.admin.dashboard);
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

  return (
    <AuthPanel title="Admin Login" subtitle="Sign in to run the event.">
      <form className="form" onSubmit={onSubmit} noValidate>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <FormField label="Username" autoComplete="username" autoCapitalize="none" spellCheck={false} error={errors.username?.message} {...form.register("username")} />
        <FormField label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...form.register("password")} />
        <button type="submit" className="btn btn-primary btn-block" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Log In"}
        </button>
      </form>
    </AuthPanel>
  );
}
