import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { hasStoredFingerprint } from "@/lib/fingerprint";
import { guardNavigation, loopRecentlyStopped } from "@/lib/navigation-guard";
import { LOCAL_KEYS, readLocal } from "@/lib/storage";
import { fetchStreamIdentity } from "@/lib/stream-identity";
import { rememberVerifiedAccess, verifyExistingAccess } from "@/lib/viewer-access";
import { AccessForm } from "./access-form";
import { LostCodeForm } from "./lost-code-form";

/**
 * A returning viewer (stored code, name and fingerprint) is checked silently and sent on to the stream.
 * Nothing is said when that fails: the form is there, filled in.
 */
function useRestoreAccess(): boolean {
  const [, navigate] = useLocation();
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    if (guardNavigation(paths.access, navigate) || loopRecentlyStopped()) return;
    const accessCode = readLocal(LOCAL_KEYS.accessCode);
    const username = readLocal(LOCAL_KEYS.username);
    if (!accessCode || !username || !hasStoredFingerprint()) return;
    let current = true;
    setChecking(true);
    void verifyExistingAccess(accessCode, username).then((valid) => {
      if (!current) return;
      setChecking(false);
      if (!valid) return;
      rememberVerifiedAccess({ accessCode, username, method: "existing-access" });
      toast({ title: "Access Restored", description: `Welcome back, ${username}.` });
      navigate(paths.livestream);
    });
    return () => {
      current = false;
    };
  }, [navigate]);
  return checking;
}

/** The signed-in admin's name, if this browser holds the panel's session: an admin watches without a code. */
function useSignedInAdmin(): string | null {
  const [admin, setAdmin] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void fetchStreamIdentity().then((here) => {
      if (current && here?.role === "admin") setAdmin(here.username);
    });
    return () => {
      current = false;
    };
  }, []);
  return admin;
}

/** Where a viewer enters their access code, username and e-mail. */
export function AccessPage() {
  const checking = useRestoreAccess();
  const admin = useSignedInAdmin();
  return (
    <div className="page page-narrow access-page">
      <div className="page-intro">
        <p className="eyebrow">Viewers only</p>
        <h1 className="display page-title">Enter The Nightmare</h1>
        <span className="drip" aria-hidden="true" />
        <p className="page-lead">Your access code opens the stream on one device. Choose the name the others will see in the chat.</p>
      </div>
      {admin ? (
        <div className="card panel access-admin" role="note">
          <p>
            You are signed in to the panel as <strong>{admin}</strong>: you watch and moderate without a code, under that name.
          </p>
          <Link href={paths.livestream} className="btn btn-primary">
            Watch as {admin}
          </Link>
        </div>
      ) : null}
      <div className="card card-blood panel">
        {checking ? (
          <p className="access-checking" role="status">
            <span className="spinner spinner-sm" aria-hidden="true" />
            Checking your saved access…
          </p>
        ) : null}
        <AccessForm busy={checking} />
        <LostCodeForm />
      </div>
      <p className="access-footnote">
        No code yet?{" "}
        <Link href={paths.home} className="access-link">
          Buy a pass for the event
        </Link>
      </p>
    </div>
  );
}
