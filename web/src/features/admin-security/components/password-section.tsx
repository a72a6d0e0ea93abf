import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { changePasswordBody } from "@contracts/team";
import { AdminSection } from "@/components/admin/admin-section";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { LockIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { serverErrorMessage } from "@/lib/api-client";
import { useChangePassword } from "../api/sessions";

type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** A new password, the current one confirming it; every other session of the member ends. */
export function PasswordSection() {
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ChangePasswordBody>({ resolver: zodResolver(changePasswordBody), defaultValues: { current: "", next: "" } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    change.mutate(values, {
      onSuccess: () => {
        form.reset();
        toast({ title: "Password changed", description: "Your other sessions were signed out." });
      },
      onError: (error) => setFailure(serverErrorMessage(error) ?? "Could not change the password. Try again."),
    });
  });

  return (
    <AdminSection icon={<LockIcon />} title="Password" text="Changing it signs out every other browser, so whoever knew the old one is out.">
      <form className="form security-password" onSubmit={onSubmit} noValidate aria-label="Change password">
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <FormField
          label="Current password"
          type="password"
          autoComplete="current-password"
          maxLength={TEXT_LIMITS.password}
          error={errors.current?.message}
          {...form.register("current")}
        />
        <FormField
          label="New password"
          type="password"
          autoComplete="new-password"
          maxLength={TEXT_LIMITS.password}
          hint="At least 6 characters."
          error={errors.next?.message}
          {...form.register("next")}
        />
        <div className="security-actions">
          <button type="submit" className="btn btn-primary btn-sm security-actions-end" disabled={change.isPending}>
            {change.isPending ? "Changing..." : "Change Password"}
          </button>
        </div>
      </form>
    </AdminSection>
  );
}
