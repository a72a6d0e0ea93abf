import { PASS_HOLD_LABELS, type AccessCodeRecord } from "@contracts/admin-panel";

const KIND = {
  SKP: { label: "Regular", className: "badge" },
  MOD: { label: "Moderator", className: "badge badge-mod" },
  SCP: { label: "Test", className: "badge badge-test" },
} as const;

export function KindBadge({ kind }: { kind: AccessCodeRecord["kind"] }) {
  const { label, className } = KIND[kind];
  return <span className={className}>{label}</span>;
}

/** Used / unused, or revoked (which wins), with what keeps a revoked pass so (its payment refunded, disputed…). */
export function UsedBadge({ record }: { record: AccessCodeRecord }) {
  if (record.revoked) {
    return (
      <>
        <span className="badge badge-danger">Revoked</span>
        {record.hold ? <span className="cell-sub codes-hold">{PASS_HOLD_LABELS[record.hold]}</span> : null}
      </>
    );
  }
  return record.used ? <span className="badge badge-yes">Used</span> : <span className="badge">Unused</span>;
}

export function DeviceBadge({ bound }: { bound: boolean }) {
  return bound ? <span className="badge badge-yes">Yes</span> : <span className="badge">No</span>;
}
