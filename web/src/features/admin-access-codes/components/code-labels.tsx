import type { AccessCodeRecord } from "@contracts/admin-panel";

const KIND = {
  SKP: { label: "Regular", className: "badge" },
  MOD: { label: "Moderator", className: "badge badge-mod" },
  SCP: { label: "Test", className: "badge badge-test" },
} as const;

export function KindBadge({ kind }: { kind: AccessCodeRecord["kind"] }) {
  const { label, className } = KIND[kind];
  return <span className={className}>{label}</span>;
}

/** Used / unused, or revoked (which wins). */
export function UsedBadge({ record }: { record: AccessCodeRecord }) {
  if (record.revoked) return <span className="badge badge-danger">Revoked</span>;
  return record.used ? <span className="badge badge-yes">Used</span> : <span className="badge">Unused</span>;
}

export function DeviceBadge({ bound }: { bound: boolean }) {
  return bound ? <span className="badge badge-yes">Yes</span> : <span className="badge">No</span>;
}
