import { useId, type ReactNode } from "react";

interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  description?: ReactNode;
  disabled?: boolean;
  id?: string;
}

/** An on/off switch (role="switch") with its label and an optional line of explanation. */
export function Switch({ checked, onCheckedChange, label, description, disabled, id }: SwitchProps) {
  const generated = useId();
  const switchId = id ?? generated;
  const descriptionId = `${switchId}-description`;
  return (
    <div className="switch-row">
      <div className="switch-text">
        <label className="field-label" htmlFor={switchId}>
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="field-hint">
            {description}
          </p>
        ) : null}
      </div>
      <button
        id={switchId}
        type="button"
        role="switch"
        className="switch"
        aria-checked={checked}
        aria-describedby={description ? descriptionId : undefined}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
      >
        <span className="switch-thumb" aria-hidden="true" />
      </button>
    </div>
  );
}
