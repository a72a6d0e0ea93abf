import { useState, type FormEvent } from "react";
import type { AdminProfile, SecondFactorKind } from "@contracts/team";
import { recoveryCode, totpCode } from "@contracts/team";
import { Alert } from "@/components/ui/alert";
import { RecoveryCodeField, TotpField } from "@/components/ui/code-field";
import { KeyIcon, LockIcon, PhoneIcon } from "@/components/ui/icons";
import { serverErrorMessage } from "@/lib/api-client";
import { webauthnFailure, webauthnSupported } from "@/lib/webauthn";
import { signInEnded, useSecondFactor, type SecondFactorProof } from "../api/second-factor";

type Method = SecondFactorKind;

const TITLES: Record<Method, string> = {
  totp: "Enter the 6-digit code from your authenticator app.",
  recovery: "Enter one of the recovery codes you saved when you set up two-factor sign-in.",
  webauthn: "Use the passkey or security key you added to your account.",
};

interface SecondFactorFormProps {
  username: string;
  kinds: SecondFactorKind[];
  onSignedIn: (profile: AdminProfile) => void;
  /** The waiting sign-in is over (expired or too many wrong codes): back to the password, with why. */
  onEnded: (message: string) => void;
}

/** The second step of signing in: a code from the app, a recovery code, or a passkey or security key. */
export function SecondFactorForm({ username, kinds, onSignedIn, onEnded }: SecondFactorFormProps) {
  const [method, setMethod] = useState<Method>(kinds.includes("totp") ? "totp" : kinds.includes("webauthn") ? "webauthn" : "recovery");
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const secondFactor = useSecondFactor();

  const finish = (proof: SecondFactorProof) => {
    setFailure(null);
    secondFactor.mutate(proof, {
      onSuccess: onSignedIn,
      onError: (error) => {
        const message = serverErrorMessage(error);
        if (signInEnded(error)) onEnded(message ?? "Your sign-in has expired. Enter your password again.");
        else setFailure(message ?? (proof.kind === "webauthn" ? webauthnFailure(error) : "That did not work. Try again."));
      },
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (method === "webauthn") return finish({ kind: "webauthn" });
    const parsed = (method === "totp" ? totpCode : recoveryCode).safeParse(code.trim());
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message);
    setFieldError(undefined);
    finish({ kind: method, code: parsed.data });
  };

  const switchTo = (next: Method) => {
    setMethod(next);
    setCode("");
    setFieldError(undefined);
    setFailure(null);
  };

  const others = kinds.filter((k) => k !== method && (k !== "webauthn" || webauthnSupported()));
  const pending = secondFactor.isPending;

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Second factor">
      <p className="auth-step-note">
        Signing in as <strong>{username}</strong>. {TITLES[method]}
      </p>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      {method === "totp" ? (
        <TotpField key="totp" value={code} onChange={setCode} error={fieldError} autoFocus />
      ) : method === "recovery" ? (
        <RecoveryCodeField key="recovery" value={code} onChange={setCode} error={fieldError} autoFocus />
      ) : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {method === "webauthn" ? <KeyIcon /> : null}
        {pending ? (method === "webauthn" ? "Waiting for your key..." : "Verifying...") : method === "webauthn" ? "Use Security Key" : "Verify"}
      </button>
      {others.length > 0 ? (
        <div className="auth-alternatives">
          <p className="auth-alternatives-title">Other ways to sign in</p>
          {others.map((k) => (
            <button key={k} type="button" className="auth-alternative" onClick={() => switchTo(k)}>
              {k === "totp" ? <PhoneIcon /> : k === "webauthn" ? <KeyIcon /> : <LockIcon />}
              {k === "totp" ? "Use your authenticator app" : k === "webauthn" ? "Use a security key or passkey" : "Use a recovery code instead"}
            </button>
          ))}
        </div>
      ) : null}
    </form>
  );
}
