import type { ReactNode } from "react";

/** One fact on a record card: an icon in place of its name (the name kept for screen readers), then its value. */
export function IconFact({ icon, label, className, children }: { icon: ReactNode; label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
