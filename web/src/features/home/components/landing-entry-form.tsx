import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { FormField } from "@/components/ui/form-field";
import { paths } from "@/config/paths";
import { LOCAL_KEYS, readLocal, writeLocal } from "@/lib/storage";

interface EntryValues {
  accessCode: string;
  username: string;
}

type EntryErrors = Partial<Record<keyof EntryValues, string>>;

/** The landing form's rules (spec section 5). */
export function validateLandingEntry(values: EntryValues): EntryErrors {
  const errors: EntryErrors = {};
  const username = values.username.trim();
  if (!values.accessCode.trim()) errors.accessCode = "Access code is required";
  if (username.length < 3) errors.username = "Username must be at least 3 characters";
  else if (username.length > 20) errors.username = "Username must be 20 characters or less";
  return errors;
}

/** Code and chat name for someone who already has a code; they are stored and checked on /access. */
export function LandingEntryForm() {
  const [, navigate] = useLocation();
  const [values, setValues] = useState<EntryValues>(() => ({ accessCode: readLocal(LOCAL_KEYS.accessCode) ?? "", username: readLocal(LOCAL_KEYS.username) ?? "" }));
  const [errors, setErrors] = useState<EntryErrors>({});
  const [submitted, setSubmitted] = useState(false);

  const change = (key: keyof EntryValues, value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (submitted) setErrors(validateLandingEntry(next));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateLandingEntry(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    writeLocal(LOCAL_KEYS.accessCode, values.accessCode.trim().toUpperCase());
    writeLocal(LOCAL_KEYS.username, values.username.trim());
    navigate(paths.access);
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="entry-title">
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
      <button type="submit" className="btn btn-primary btn-block btn-lg">
        ENTER THE DARKNESS
      </button>
    </form>
  );
}
