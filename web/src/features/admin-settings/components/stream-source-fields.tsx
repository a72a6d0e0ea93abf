import { useId } from "react";
import type { StreamSourceView } from "@contracts/stream";
import { FormField } from "@/components/ui/form-field";
import { AlertIcon } from "@/components/ui/icons";
import { secretIsSet, type KindOption, type SourceField } from "../lib/stream-source-form";

interface FieldsProps {
  option: KindOption;
  saved: StreamSourceView;
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (name: string, value: string) => void;
}

/** The inputs of one kind; a saved secret shows as set and is kept when its field is left empty. */
export function StreamSourceFields({ option, saved, values, errors, onChange }: FieldsProps) {
  return (
    <div className="stream-source-fields">
      {option.fields.map((field) => {
        const isSet = secretIsSet(saved, option.kind, field.name);
        const common = {
          label: field.label,
          error: errors[field.name],
          hint: isSet ? `${field.hint} A key is saved: leave this empty to keep it.` : field.hint,
          value: values[field.name] ?? "",
          placeholder: isSet ? "Saved — hidden" : field.placeholder,
          onChange: (value: string) => onChange(field.name, value),
        };
        return field.secret === "key" ? (
          <KeyField key={`${option.kind}-${field.name}`} {...common} />
        ) : (
          <FormField
            key={`${option.kind}-${field.name}`}
            {...common}
            name={field.name}
            type={field.secret === "token" ? "password" : "text"}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => common.onChange(e.target.value)}
          />
        );
      })}
    </div>
  );
}

type KeyFieldProps = Pick<SourceField, "label"> & { error?: string; hint: string; value: string; placeholder?: string; onChange: (value: string) => void };

/** A private key pasted as it comes (several lines of PEM, or one of base64). */
function KeyField({ label, error, hint, value, placeholder, onChange }: KeyFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="input stream-source-key"
        rows={4}
        value={value}
        placeholder={placeholder ?? "-----BEGIN PRIVATE KEY----- …"}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          <AlertIcon width={14} height={14} />
          {error}
        </p>
      ) : null}
    </div>
  );
}
