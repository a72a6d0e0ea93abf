import { useId, type ComponentProps, type ReactNode } from "react";
import { AlertIcon } from "@/components/ui/site-icons";

/** What a control needs to be tied to its label, hint and message. */
export interface FieldControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  id?: string;
  /** Renders the control (an input, a textarea) with the props that tie it to the rest. */
  control: (props: FieldControlProps) => ReactNode;
}

/** A labelled control with its hint and validation message (announced, and tied to the control). */
export function Field({ label, error, hint, id, control }: FieldProps) {
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
      {control({ id: inputId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
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

type FormFieldProps = ComponentProps<"input"> & {
  label: string;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input with its validation message (announced, and tied to the input). */
export function FormField({ label, error, hint, id, className, ...inputProps }: FormFieldProps) {
  return <Field label={label} error={error} hint={hint} id={id} control={(tie) => <input className={className ? `input ${className}` : "input"} {...tie} {...inputProps} />} />;
}
