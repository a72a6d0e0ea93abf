import type { StreamSourceView } from "@contracts/stream";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { Field, FormField } from "@/components/ui/form-field";
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
    <div className="settings-stream-source-fields">
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
            maxLength={field.secret ? TEXT_LIMITS.streamSecret : field.name.endsWith("Url") ? TEXT_LIMITS.address : TEXT_LIMITS.streamId}
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
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      control={(tie) => (
        <textarea
          {...tie}
          className="input settings-stream-source-key"
          rows={4}
          maxLength={TEXT_LIMITS.streamSecret}
          value={value}
          placeholder={placeholder ?? "-----BEGIN PRIVATE KEY----- …"}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    />
  );
}
