import type { AuditEntry } from "@contracts/team";

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** When it happened in the owner's own time zone, to the second: "12 Oct 2025" and "21:30:05". */
export function AuditTime({ iso, oneLine = false }: { iso: string; oneLine?: boolean }) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <>—</>;
  return (
    <time dateTime={iso} className={oneLine ? "audit-time" : "audit-time audit-time-stacked"}>
      <span>{day.format(d)}</span> <span className="audit-clock">{clock.format(d)}</span>
    </time>
  );
}

/** A recorded value in a line: `role: support`, `required: on`, a list joined, nothing as "—". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.map(describeValue).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, v]) => `${key}: ${describeValue(v)}`)
      .join(", ");
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a string or a number by now: objects are described above
  return String(value);
}

/** A target as text that may break after an "@", so an e-mail address wraps at its natural place. */
export function AuditTarget({ target }: { target: string }) {
  const [name, ...rest] = target.split("@");
  if (rest.length === 0) return <>{target}</>;
  return (
    <>
      {name}@<wbr />
      {rest.join("@")}
    </>
  );
}

/** What changed: before → after, or only the side that exists. */
export function AuditChange({ entry }: { entry: AuditEntry }) {
  const hasBefore = entry.before !== null && entry.before !== undefined;
  const hasAfter = entry.after !== null && entry.after !== undefined;
  if (!hasBefore && !hasAfter) return <span className="cell-muted">—</span>;
  return (
    <span className="audit-change">
      {hasBefore ? <span className="audit-before">{describeValue(entry.before)}</span> : null}
      {hasBefore && hasAfter ? (
        <span className="audit-arrow" aria-label="changed to">
          →
        </span>
      ) : null}
      {hasAfter ? <span className="audit-after">{describeValue(entry.after)}</span> : null}
    </span>
  );
}

/** The action as a tag; failed sign-ins and removals stand out. */
export function ActionTag({ action }: { action: string }) {
  const alarming = /failed|remove|disable|revoke|refund/.test(action);
  return <span className={alarming ? "badge badge-danger audit-action" : "badge audit-action"}>{action}</span>;
}
