import { useId, type ReactNode } from "react";

interface AdminSectionProps {
  icon: ReactNode;
  title: string;
  text: string;
  /** How and when this card's fields are saved, said under its title. */
  saves?: string;
  /** The card holds changes not saved yet. */
  unsaved?: boolean;
  children: ReactNode;
}

/** A titled card of an admin screen (Settings, Moderation), saying how it is saved when it has its own save. */
export function AdminSection({ icon, title, text, saves, unsaved = false, children }: AdminSectionProps) {
  const headingId = useId();
  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <AdminSectionHead id={headingId} icon={icon} title={title} text={text} saves={saves} unsaved={unsaved} />
      <div className="form">{children}</div>
    </section>
  );
}

/** The icon, title, text and saving note of an admin card. */
export function AdminSectionHead({ id, icon, title, text, saves, unsaved = false }: Omit<AdminSectionProps, "children"> & { id: string }) {
  return (
    <div className="admin-section-head">
      <span className="admin-section-icon" aria-hidden="true">
        {icon}
      </span>
      <div className="admin-section-heading">
        <h2 id={id} className="admin-section-title">
          {title}
        </h2>
        <p className="admin-section-text">{text}</p>
        {saves ? (
          <p className="admin-section-saves" data-unsaved={unsaved || undefined}>
            <span className="admin-section-saves-dot" aria-hidden="true" />
            {unsaved ? "Unsaved changes · saved with Save Settings" : saves}
          </p>
        ) : null}
      </div>
    </div>
  );
}
