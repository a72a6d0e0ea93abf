import { useState, type FormEvent, type ReactNode } from "react";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { recoveryCode, totpCode } from "@contracts/team";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { Alert } from "@/components/ui/alert";
import { RecoveryCodeField } from "@/components/ui/code-field";
import { FormField } from "@/components/ui/form-field";

/** A code from the app or a recovery code, as the server takes it; or why it is neither. */
function parseAnyCode(value: string): { code: string } | { error: string } {
  const trimmed = value.trim();
  if (/^[0-9\s]+$/.test(trimmed)) {
    const totp = totpCode.safeParse(trimmed.replace(/\s/g, ""));
    return totp.success ? { code: totp.data } : { error: "Enter the 6-digit code from your authenticator app" };
  }
  const recovery = recoveryCode.safeParse(trimmed);
  return recovery.success ? { code: recovery.data } : { error: "Enter the 6-digit code from your app or one of your recovery codes" };
}

interface PasswordAndCodeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  icon: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Sends the password and code; `failed` shows the server's refusal in the dialog. */
  onConfirm: (body: { password: string; code: string }, failed: (message: string) => void) => void;
}

/** Asks for the password and a code (from the app or a recovery code) before a change to the factors themselves. */
export function PasswordAndCodeDialog({ open, onOpenChange, title, description, icon, confirmLabel, pendingLabel, pending, onConfirm }: PasswordAndCodeDialogProps) {
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);

  const reset = (next: boolean) => {
    if (!next) {
      setPassword("");
      setCode("");
      setErrors({});
      setFailure(null);
    }
    onOpenChange(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAnyCode(code);
    const found = { password: password ? undefined : "Password is required", code: "error" in parsed ? parsed.error : undefined };
    setErrors(found);
    if (found.password || !("code" in parsed)) return;
    setFailure(null);
    onConfirm({ password, code: parsed.code }, setFailure);
  };

  return (
    <AdminDialog open={open} onOpenChange={reset} title={title} description={description} icon={icon} tone="danger">
      <form className="form" onSubmit={onSubmit} noValidate>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={TEXT_LIMITS.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <RecoveryCodeField label="Code from your app, or a recovery code" placeholder="123456" value={code} onChange={setCode} error={errors.code} />
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={() => reset(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? pendingLabel : confirmLabel}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}
