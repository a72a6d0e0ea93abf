import type { ReactNode } from "react";

/** The heading block at the top of every admin page. */
export function AdminPageHeader({ title, description, actions }: { title: string; description: string; actions?: ReactNode }) {
  return (
    <header className="admin-page-header">
      <div className="admin-page-heading">
        <p className="eyebrow">Admin</p>
        <h1 className="admin-page-title">{title}</h1>
        <p className="admin-page-description">{description}</p>
      </div>
      {actions ? <div className="admin-page-actions">{actions}</div> : null}
    </header>
  );
}
