import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { FormField } from "@/components/ui/form-field";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { importFresh } from "@/lib/app-version";
import { LOCAL_KEYS, readLocal, writeLocal } from "@/lib/storage";

// The check with the server and its words load when the form is first used: fetched ahead when a field
// takes focus, so the submit finds them there.
const loadVerdicts = () => importFresh(() => import("@/lib/access-verdicts"));
const fetchVerdicts = () => void loadVerdicts().catch(() => {});

interface EntryValues {
  accessCode: string;
  username: string;
}

type EntryErrors = Partial<Record<keyof EntryValues, string>>;

/** The landing form's rules: a code, and a name of 3 to 20 characters. */
export function validateLandingEntry(values: EntryValues): EntryErrors {
  const errors: EntryErrors = {};
  const username = values.username.trim();
  if (!values.accessCode.trim()) errors.accessCode = "Access code is required";
  if (username.length < 3) errors.username = "Username must be at least 3 characters";
  else if (username.length > 20) errors.username = "Username must be 20 characters or less";
  return errors;
}

/**
 * Code and chat name for someone who already has a code. They are stored and checked with the server
 * (POST /api/verify-access) before going on to /access; a refusal is said there in a toast, and the
 * form on /access, filled in, is where to put it right.
 */
export function LandingEntryForm() {
  const [, navigate] = useLocation();
  const [values, setValues] = useState<EntryValues>(() => ({ accessCode: readLocal(LOCAL_KEYS.accessCode) ?? "", username: readLocal(LOCAL_KEYS.username) ?? "" }));
  const [errors, setErrors] = useState<EntryErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [checking, setChecking] = useState(false);

  const change = (key: keyof EntryValues, value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (submitted) setErrors(validateLandingEntry(next));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking) return;
    setSubmitted(true);
    const found = validateLandingEntry(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const accessCode = values.accessCode.trim().toUpperCase();
    const username = values.username.trim();
    writeLocal(LOCAL_KEYS.accessCode, accessCode);
    writeLocal(LOCAL_KEYS.username, username);
    setChecking(true);
    try {
      const { ACCESS_DENIED_TITLE, REFUSED_WITHOUT_REASON, checkAccess } = await loadVerdicts();
      const answer = await checkAccess({ accessCode, username });
      if (answer.kind === "refused") toast({ variant: "destructive", title: ACCESS_DENIED_TITLE, description: answer.reason || REFUSED_WITHOUT_REASON });
    } catch {}
    // Unreachable (the server, or the check's own code): /access checks again when the viewer enters.
    navigate(paths.access);
  };

  return (
    <form className="form" onSubmit={onSubmit} onFocus={fetchVerdicts} noValidate aria-labelledby="entry-title">
      <FormField
        label="Access code"
        name="accessCode"
        placeholder="SKP-XXXX-XXXX-XXXX-XXXX"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={values.accessCode}
        error={errors.accessCode}
        onChange={(event) => change("accessCode", event.target.value)}
      />
      <FormField
        label="Chat username"
        name="username"
        placeholder="What should they call you?"
        autoComplete="nickname"
        spellCheck={false}
        value={values.username}
        error={errors.username}
        onChange={(event) => change("username", event.target.value)}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={checking}>
        {checking ? (
          <>
            <span className="spinner spinner-sm" aria-hidden="true" />
            Checking...
          </>
        ) : (
          "ENTER THE DARKNESS"
        )}
      </button>
    </form>
  );
}
