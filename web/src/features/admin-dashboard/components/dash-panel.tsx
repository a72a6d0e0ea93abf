import type { ReactNode } from "react";

/** A wide dashboard card: icon, title and a figure or badge on the right, then its content. */
export function DashPanel({ icon, title, aside, children }: { icon: ReactNode; title: string; aside: ReactNode; children: ReactNode }) {
  return (
    <article className="card dash-panel">
      <div className="dash-panel-head">
        <span className="dash-stat-card-icon" aria-hidden="true">
          {icon}
        </span>
        <h2 className="dash-stat-card-label">{title}</h2>
        {aside}
      </div>
      {children}
    </article>
  );
}
