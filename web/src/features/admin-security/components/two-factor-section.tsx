import { useId, useState, type ReactNode } from "react";
import { AdminSectionHead } from "@/components/admin/admin-section";
import { LoadFailed } from "@/components/admin/load-failed";
import { Alert } from "@/components/ui/alert";
import { KeyIcon, LockIcon, PhoneIcon, ShieldIcon } from "@/components/ui/icons";
import { RefreshIcon } from "@/components/ui/site-icons";
import { PageLoader } from "@/components/ui/page-loader";
import { toast } from "@/hooks/use-toast";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useAdminProfile } from "@/lib/admin-auth";
import { serverErrorMessage } from "@/lib/api-client";
import { useDisableTwoFactor, useNewRecoveryCodes, useTwoFactor } from "../api/two-factor";
import { AddPasskey, PasskeyList } from "./passkeys";
import { PasswordAndCodeDialog } from "./password-and-code-dialog";
import { RecoveryCodes } from "./recovery-codes";
import { TotpSetup } from "./totp-setup";

function Factor({ icon, title, state, action, children }: { icon: ReactNode; title: string; state: ReactNode; action?: ReactNode; children?: ReactNode }) {
  return (
    <div className="security-factor">
      <div className="security-factor-row">
        <span className="security-factor-icon" aria-hidden="true">
          {icon}
        </span>
        <div className="security-factor-text">
          <h3 className="security-factor-title">{title}</h3>
          <p className="security-muted">{state}</p>
        </div>
        {action ? <div className="security-factor-action">{action}</div> : null}
      </div>
      {children}
    </div>
  );
}

/**
 * Two-factor sign-in: an authenticator app, passkeys and security keys, recovery codes, and turning it all
 * off. While `enrolling` (the team requires two factors and the member has none) it offers only the set-up,
 * and `onEnrolled` goes on to the panel once the recovery codes are saved.
 */
export function TwoFactorSection({ enrolling, onEnrolled }: { enrolling: boolean; onEnrolled: () => void }) {
  const headingId = useId();
  const profile = useAdminProfile();
  const factors = useTwoFactor();
  useQueryErrorToast(factors, "Failed to load your two-factor settings.");
  const newCodes = useNewRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [adding, setAdding] = useState<"totp" | "passkey" | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<"codes" | "disable" | null>(null);

  const showCodes = (recoveryCodes: string[] | null, what: string) => {
    setAdding(null);
    if (recoveryCodes) setCodes(recoveryCodes);
    toast({ title: "Two-factor sign-in", description: what });
  };
  const codesSaved = () => {
    setCodes(null);
    if (enrolling) onEnrolled();
  };

  const data = factors.data;
  const on = !!data && (data.totp || data.webauthn > 0);
  return (
    <section className="card admin-section security-section" aria-labelledby={headingId}>
      <AdminSectionHead
        id={headingId}
        icon={<ShieldIcon />}
        title={enrolling ? "Set up two-factor sign-in" : "Two-factor sign-in"}
        text={
          enrolling
            ? "Your team requires a second step at sign-in. Add an authenticator app or a passkey to start using the panel."
            : "A second step after your password: a code from an app on your phone, or a passkey or security key."
        }
      />
      {factors.isPending ? (
        <PageLoader label="Loading your two-factor settings…" />
      ) : factors.isError || !data ? (
        <LoadFailed icon={<ShieldIcon />} title="Your two-factor settings could not be loaded" onRetry={() => void factors.refetch()} />
      ) : codes ? (
        <RecoveryCodes codes={codes} username={profile.data?.username ?? "admin"} doneLabel={enrolling ? "Saved: Go to the Panel" : "I've Saved Them"} onDone={codesSaved} />
      ) : (
        <>
          {enrolling ? null : (
            <p className="security-status">
              <span className={on ? "badge badge-on" : "badge badge-danger"}>{on ? "On" : "Off"}</span>
              {on
                ? "Signing in asks for your password and a second factor."
                : data.teamRequires
                  ? "The team requires two-factor sign-in: set it up now."
                  : "Your password alone signs you in. Add a second factor to protect the event's money and keys."}
            </p>
          )}
          <div className="security-factors">
            <Factor
              icon={<PhoneIcon />}
              title="Authenticator app"
              state={data.totp ? "On: your app's codes sign you in." : "Not set up."}
              action={
                data.totp || adding === "totp" ? undefined : (
                  <button type="button" className="btn btn-outline btn-sm" onClick={() => setAdding("totp")}>
                    Set Up App
                  </button>
                )
              }
            >
              {adding === "totp" ? (
                <TotpSetup enrolling={enrolling} onEnabled={(recoveryCodes) => showCodes(recoveryCodes, "Your authenticator app is on.")} onCancel={() => setAdding(null)} />
              ) : null}
            </Factor>
            <Factor
              icon={<KeyIcon />}
              title="Passkeys and security keys"
              state={data.webauthn === 0 ? "None added." : `${data.webauthn} added.`}
              action={
                adding === "passkey" || data.passkeysUnavailable ? undefined : (
                  <button type="button" className="btn btn-outline btn-sm" onClick={() => setAdding("passkey")}>
                    Add Key
                  </button>
                )
              }
            >
              {data.passkeysUnavailable ? <Alert title="Not available at this address">{data.passkeysUnavailable}</Alert> : null}
              <PasskeyList passkeys={data.passkeys} canRemoveLast={data.totp || !data.teamRequires} />
              {adding === "passkey" ? (
                <AddPasskey enrolling={enrolling} onAdded={(recoveryCodes) => showCodes(recoveryCodes, "Your key was added.")} onCancel={() => setAdding(null)} />
              ) : null}
            </Factor>
            {on ? (
              <Factor
                icon={<LockIcon />}
                title="Recovery codes"
                state={`${data.recoveryCodesLeft} of 10 left. Each signs you in once without your phone or key.`}
                action={
                  <button type="button" className="btn btn-outline btn-sm" onClick={() => setAsking("codes")}>
                    <RefreshIcon />
                    New Codes
                  </button>
                }
              />
            ) : null}
          </div>
          {on && !enrolling ? (
            <div className="security-danger-zone">
              <p className="security-muted">
                {data.teamRequires ? "The team requires two-factor sign-in, so it cannot be turned off." : "Turning it off removes your app, keys and recovery codes."}
              </p>
              <button type="button" className="btn btn-outline btn-sm" disabled={data.teamRequires} onClick={() => setAsking("disable")}>
                Turn Off Two-Factor Sign-In
              </button>
            </div>
          ) : null}
        </>
      )}
      <PasswordAndCodeDialog
        open={asking === "codes"}
        onOpenChange={(open) => !open && setAsking(null)}
        title="Make new recovery codes?"
        description="Your current codes stop working. Confirm with your password and a code."
        icon={<LockIcon />}
        confirmLabel="Make New Codes"
        pendingLabel="Making..."
        pending={newCodes.isPending}
        onConfirm={(body, failed) =>
          newCodes.mutate(body, {
            onSuccess: ({ recoveryCodes }) => {
              setAsking(null);
              showCodes(recoveryCodes, "New recovery codes were made; the old ones no longer work.");
            },
            onError: (error) => failed(serverErrorMessage(error) ?? "Could not make new codes."),
          })
        }
      />
      <PasswordAndCodeDialog
        open={asking === "disable"}
        onOpenChange={(open) => !open && setAsking(null)}
        title="Turn off two-factor sign-in?"
        description="Your password alone will sign you in. Your app, keys and recovery codes are removed."
        icon={<ShieldIcon />}
        confirmLabel="Turn Off"
        pendingLabel="Turning off..."
        pending={disable.isPending}
        onConfirm={(body, failed) =>
          disable.mutate(body, {
            onSuccess: () => {
              setAsking(null);
              toast({ title: "Two-factor sign-in is off", description: "Your password alone now signs you in." });
            },
            onError: (error) => failed(serverErrorMessage(error) ?? "Could not turn it off."),
          })
        }
      />
    </section>
  );
}
