import { FormField } from "@/components/ui/form-field";

interface CodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  label?: string;
  placeholder?: string;
  autoFocus?: boolean;
}

/** The 6-digit code from an authenticator app: digits only, with the phone's number pad and one-time-code autofill. */
export function TotpField({ value, onChange, error, label = "Authentication code", autoFocus = false }: CodeFieldProps) {
  return (
    <FormField
      label={label}
      className="code-input"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      placeholder="123456"
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, ""))}
      error={error}
    />
  );
}

/** A recovery code ("abcde-fghjk"), or, with another label, any code typed as letters and digits. */
export function RecoveryCodeField({ value, onChange, error, label = "Recovery code", placeholder = "abcde-fghjk", autoFocus = false }: CodeFieldProps) {
  return (
    <FormField
      label={label}
      className="code-input"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={20}
      placeholder={placeholder}
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  );
}
