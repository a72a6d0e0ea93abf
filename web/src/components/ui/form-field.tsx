import { useId, type ComponentProps, type ReactNode } from "react";
import { AlertIcon } from "@/components/ui/icons";

type FormFieldProps = ComponentProps<"input"> & {
  label: string;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input with its validation message (announced, and tied to the input). */
export function FormField({ label, error, hint, id, className, ...inputProps }: FormFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className={className ? `input ${className}` : "input"}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          <AlertIcon width={14} height={14} />
          {error}
        </p>
      ) : null}
    </div>
  );
}
