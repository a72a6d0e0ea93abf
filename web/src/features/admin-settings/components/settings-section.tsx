import { useId, type ReactNode } from "react";

interface SettingsSectionProps {
  icon: ReactNode;
  title: string;
  text: string;
  /** How and when this card's fields are saved, said under its title. */
  saves?: string;
  /** The card holds changes not saved yet. */
  unsaved?: boolean;
  children: ReactNode;
}

/** A titled card of the settings page, saying how it is saved. */
export function SettingsSection({ icon, title, text, saves, unsaved = false, children }: SettingsSectionProps) {
  const headingId = useId();
  return (
    <section className="card settings-section" aria-labelledby={headingId}>
      <SettingsSectionHead id={headingId} icon={icon} title={title} text={text} saves={saves} unsaved={unsaved} />
      <div className="form">{children}</div>
    </section>
  );
}

/** The icon, title, text and saving note of a settings card. */
export function SettingsSectionHead({ id, icon, title, text, saves, unsaved = false }: Omit<SettingsSectionProps, "children"> & { id: string }) {
  return (
    <div className="settings-section-head">
      <span className="settings-section-icon" aria-hidden="true">
        {icon}
      </span>
      <div className="settings-section-heading">
        <h2 id={id} className="settings-section-title">
          {title}
        </h2>
        <p className="settings-section-text">{text}</p>
        {saves ? (
          <p className="settings-section-saves" data-unsaved={unsaved || undefined}>
            <span className="settings-section-saves-dot" aria-hidden="true" />
            {unsaved ? "Unsaved changes · saved with Save Settings" : saves}
          </p>
        ) : null}
      </div>
    </div>
  );
}
