import { useQuery, useQueryClient } from "@/lib/query";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { recoveryCode, totpCode } from "@contracts/team";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { Alert } from "@/components/ui/alert";
import { RecoveryCodeField, TotpField } from "@/components/ui/code-field";
import { FormField } from "@/components/ui/form-field";
import { KeyIcon, LockIcon, PhoneIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { paths } from "@/config/paths";
import { useLogout } from "@/lib/admin-auth";
import { serverErrorMessage } from "@/lib/api-client";
import { setStepUpPrompt } from "@/lib/step-up";
import { webauthnSupported } from "@/lib/webauthn";
import { useReauth, type Proof } from "../api/reauth";
import { twoFactorQueryOptions, type TwoFactorState } from "../api/two-factor";

type Method = Proof["kind"];

function methodsOf(factors: TwoFactorState): Method[] {
  if (!factors.totp && factors.webauthn === 0) return ["password"];
  const methods: Method[] = [];
  if (factors.totp) methods.push("totp");
  if (factors.webauthn > 0 && webauthnSupported()) methods.push("webauthn");
  if (factors.recoveryCodesLeft > 0) methods.push("recovery");
  return methods;
}

const ASK: Record<Method, string> = {
  password: "Enter your password to go on.",
  totp: "Enter the 6-digit code from your authenticator app to go on.",
  recovery: "Enter one of your recovery codes to go on.",
  webauthn: "Use your passkey or security key to go on.",
};

const SWITCH: Record<Method, { label: string; Icon: typeof KeyIcon }> = {
  password: { label: "Use your password", Icon: LockIcon },
  totp: { label: "Use your authenticator app", Icon: PhoneIcon },
  recovery: { label: "Use a recovery code", Icon: LockIcon },
  webauthn: { label: "Use your security key", Icon: KeyIcon },
};

/**
 * A member the team requires to set up two factors, whose last proof is old: their password alone is no
 * step-up (the server refuses it), so they sign in again, which opens the set-up for ten minutes.
 */
function SignInAgain({ onCancel }: { onCancel: () => void }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const signInAgain = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        onCancel();
        navigate(paths.admin.login, { replace: true });
        queryClient.clear();
      },
    });
  return (
    <div className="form">
      <Alert title="Sign in again to set up two-factor sign-in">
        Your team requires a second step at sign-in, so your password alone cannot confirm it&apos;s you. Sign in again, then set up an authenticator app or a passkey within 10
        minutes.
      </Alert>
      <div className="admin-dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={signInAgain} disabled={logout.isPending}>
          <LockIcon />
          {logout.isPending ? "Signing out..." : "Sign In Again"}
        </button>
      </div>
    </div>
  );
}

function StepUpForm({ factors, onConfirmed, onCancel }: { factors: TwoFactorState; onConfirmed: () => void; onCancel: () => void }) {
  const methods = methodsOf(factors);
  const [method, setMethod] = useState<Method>(methods[0] ?? "password");
  const [value, setValue] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const reauth = useReauth();

  const send = (proof: Proof) => {
    setFailure(null);
    reauth.mutate(proof, {
      onSuccess: onConfirmed,
      onError: (error) => setFailure(serverErrorMessage(error) ?? error.message),
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (method === "webauthn") return send({ kind: "webauthn" });
    if (method === "password") {
      if (!value) return setFieldError("Password is required");
      setFieldError(undefined);
      return send({ kind: "password", password: value });
    }
    const parsed = (method === "totp" ? totpCode : recoveryCode).safeParse(value.trim());
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message);
    setFieldError(undefined);
    send({ kind: method, code: parsed.data });
  };

  const switchTo = (next: Method) => {
    setMethod(next);
    setValue("");
    setFieldError(undefined);
    setFailure(null);
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="security-muted">{ASK[method]}</p>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      {method === "password" ? (
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={TEXT_LIMITS.password}
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={fieldError}
        />
      ) : method === "totp" ? (
        <TotpField value={value} onChange={setValue} error={fieldError} autoFocus />
      ) : method === "recovery" ? (
        <RecoveryCodeField value={value} onChange={setValue} error={fieldError} autoFocus />
      ) : null}
      {methods.length > 1 ? (
        <div className="security-alternatives">
          {methods
            .filter((m) => m !== method)
            .map((m) => {
              const { label, Icon } = SWITCH[m];
              return (
                <button key={m} type="button" className="security-link-button" onClick={() => switchTo(m)}>
                  <Icon />
                  {label}
                </button>
              );
            })}
        </div>
      ) : null}
      <div className="admin-dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={reauth.isPending}>
          {method === "webauthn" ? <KeyIcon /> : null}
          {reauth.isPending ? "Checking..." : method === "webauthn" ? "Use Security Key" : "Confirm"}
        </button>
      </div>
    </form>
  );
}

/**
 * "Confirm it's you": opened by the API client for any call refused for a stale proof (403 `reauth`). Once
 * the member gives their password (no second factor), a code or their key, the refused call goes again.
 * Mounted once for the whole panel.
 */
export function StepUpDialog() {
  const [open, setOpen] = useState(false);
  const [round, setRound] = useState(0);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);
  const factors = useQuery({ ...twoFactorQueryOptions(), enabled: open });

  useEffect(() => {
    const unregister = setStepUpPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setRound((n) => n + 1);
          setOpen(true);
        }),
    );
    return () => {
      unregister();
      settle.current?.(false);
    };
  }, []);

  // Each time it opens, the factors are read again: one may have been added or removed since.
  const { refetch } = factors;
  useEffect(() => {
    if (round > 0) void refetch();
  }, [round, refetch]);

  const close = (confirmed: boolean) => {
    settle.current?.(confirmed);
    settle.current = null;
    setOpen(false);
  };

  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => !next && close(false)}
      title="Confirm it's you"
      description="Money, keys, the team and your sign-in ask for a fresh proof when your last one is over 10 minutes old."
      icon={<LockIcon />}
    >
      {factors.data && !factors.isFetching ? (
        factors.data.teamRequires && !factors.data.totp && factors.data.webauthn === 0 ? (
          <SignInAgain onCancel={() => close(false)} />
        ) : (
          <StepUpForm key={round} factors={factors.data} onConfirmed={() => close(true)} onCancel={() => close(false)} />
        )
      ) : factors.isError ? (
        <Alert variant="error">{serverErrorMessage(factors.error) ?? "Could not load your sign-in methods. Close this and try again."}</Alert>
      ) : (
        <PageLoader label="Loading…" />
      )}
    </AdminDialog>
  );
}
