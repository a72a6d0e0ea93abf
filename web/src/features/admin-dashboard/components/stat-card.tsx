import type { ReactNode } from "react";

/** One figure of the dashboard: an icon, a label, the value and a line of context. */
export function StatCard({ icon, label, value, detail }: { icon: ReactNode; label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <article className="stat-card card">
      <span className="stat-card-icon" aria-hidden="true">
        {icon}
      </span>
      <h2 className="stat-card-label">{label}</h2>
      <p className="stat-card-value">{value}</p>
      {detail ? <p className="stat-card-detail">{detail}</p> : null}
    </article>
  );
}
