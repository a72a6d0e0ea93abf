import type { ReactNode } from "react";

/** One figure of the dashboard: an icon, a label, the value and a line of context. */
export function StatCard({ icon, label, value, detail }: { icon: ReactNode; label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <article className="dash-stat-card card">
      <span className="dash-stat-card-icon" aria-hidden="true">
        {icon}
      </span>
      <h2 className="dash-stat-card-label">{label}</h2>
      <p className="dash-stat-card-value">{value}</p>
      {detail ? <p className="dash-stat-card-detail">{detail}</p> : null}
    </article>
  );
}
