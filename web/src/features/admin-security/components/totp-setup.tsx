import { useEffect, useRef, useState, type FormEvent } from "react";
import { totpCode } from "@contracts/team";
import { Alert } from "@/components/ui/alert";
import { TotpField } from "@/components/ui/code-field";
import { CopyIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { serverErrorMessage } from "@/lib/api-client";
import { copyText } from "@/lib/clipboard";
import { useTotpEnable, useTotpSetup } from "../api/two-factor";

/** The secret in groups of four, as authenticator apps show a key to type. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/**
 * Setting up an authenticator app: a new secret as a QR code and as text, then a code from the app turns
 * it on and answers the recovery codes.
 */
export function TotpSetup({ enrolling, onEnabled, onCancel }: { enrolling: boolean; onEnabled: (recoveryCodes: string[]) => void; onCancel: () => void }) {
  const setup = useTotpSetup();
  const enable = useTotpEnable(enrolling);
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  // One secret per opening: a second request would replace the one the QR code shows.
  const { mutate: start } = setup;
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = totpCode.safeParse(code);
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message);
    setFieldError(undefined);
    setFailure(null);
    enable.mutate(parsed.data, {
      onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes),
      onError: (error) => setFailure(serverErrorMessage(error) ?? "Could not turn the app on. Try again."),
    });
  };

  if (setup.isError) {
    return (
      <div className="security-setup">
        <Alert variant="error">{serverErrorMessage(setup.error) ?? "Could not start setting up the app."}</Alert>
        <div className="security-actions">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => start()}>
            Try Again
          </button>
        </div>
      </div>
    );
  }
  if (!setup.data) {
    return (
      <div className="security-setup security-dialog-loading">
        <PageLoader label="Making your secret…" />
      </div>
    );
  }

  const { secret, qrSvg } = setup.data;
  return (
    <form className="security-setup security-totp" onSubmit={onSubmit} noValidate aria-label="Set up an authenticator app">
      <figure className="security-qr">
        <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`} alt="QR code to scan with your authenticator app" width={184} height={184} />
      </figure>
      <div className="security-totp-steps">
        <ol className="security-steps">
          <li>Open your authenticator app (1Password, Google Authenticator, Authy, Aegis…) and scan the QR code.</li>
          <li>
            Can't scan it? Add an account by hand with this key:
            <span className="security-secret">
              <code className="mono" aria-label="Secret key">
                {grouped(secret)}
              </code>
              <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label="Copy the key" title="Copy the key" onClick={() => void copyText(secret, "the key")}>
                <CopyIcon />
              </button>
            </span>
          </li>
          <li>Enter the 6-digit code the app now shows.</li>
        </ol>
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        <TotpField value={code} onChange={setCode} error={fieldError} label="Code from the app" />
        <div className="security-actions">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary btn-sm" disabled={enable.isPending}>
            {enable.isPending ? "Checking..." : "Turn On"}
          </button>
        </div>
      </div>
    </form>
  );
}
