import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation } from "wouter";
import { createFirstAdminBody, type CreateFirstAdminBody } from "@contracts/admin";
import { FormField } from "@/components/ui/form-field";
import { Alert } from "@/components/ui/alert";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { useCreateFirstAdmin, useFirstAdminStatus } from "@/lib/admin-auth";
import { serverErrorMessage } from "@/lib/api-client";
import { AuthPanel } from "./auth-panel";

/** First run: creates the one administrator account, then sends the operator to the login page. */
export function CreateFirstAdminPage() {
  const [, navigate] = useLocation();
  const firstAdmin = useFirstAdminStatus();
  const create = useCreateFirstAdmin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CreateFirstAdminBody>({
    resolver: zodResolver(createFirstAdminBody),
    defaultValues: { username: "", email: "", password: "" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    create.mutate(values, {
      onSuccess: () => {
        toast({ title: "Admin account created", description: "Log in with your new account." });
        navigate(paths.admin.login);
      },
      onError: (error) => setFailure(serverErrorMessage(error)),
    });
  });

  if (firstAdmin.data && !firstAdmin.data.needsFirstAdmin && !create.isSuccess) {
    return (
      <AuthPanel title="Create First Admin" subtitle="The first administrator account of this event.">
        <div className="auth-notice">
          <Alert>An admin account already exists. Log in instead.</Alert>
          <Link href={paths.admin.login} className="btn btn-primary btn-block">
            Go to Login
          </Link>
        </div>
      </AuthPanel>
    );
  }

  return (
    <AuthPanel title="Create First Admin" subtitle="Set up the administrator account that runs this event.">
      <form className="form" onSubmit={onSubmit} noValidate>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <FormField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={TEXT_LIMITS.adminUsername}
          error={errors.username?.message}
          {...form.register("username")}
        />
        <FormField label="Email" type="email" autoComplete="email" maxLength={TEXT_LIMITS.email} error={errors.email?.message} {...form.register("email")} />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          maxLength={TEXT_LIMITS.password}
          hint="At least 6 characters."
          error={errors.password?.message}
          {...form.register("password")}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={create.isPending}>
          {create.isPending ? "Creating..." : "Create Admin Account"}
        </button>
      </form>
    </AuthPanel>
  );
}
