import { useId, type ReactNode } from "react";

/** A titled card of the settings page. */
export function SettingsSection({ icon, title, text, children }: { icon: ReactNode; title: string; text: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="card settings-section" aria-labelledby={headingId}>
      <div className="settings-section-head">
        <span className="settings-section-icon" aria-hidden="true">
          {icon}
        </span>
        <div>
          <h2 id={headingId} className="settings-section-title">
            {title}
          </h2>
          <p className="settings-section-text">{text}</p>
        </div>
      </div>
      <div className="form">{children}</div>
    </section>
  );
}
