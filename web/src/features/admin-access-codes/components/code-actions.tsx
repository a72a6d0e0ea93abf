import type { AccessCodeRecord } from "@contracts/admin-panel";
import { BanIcon, CopyIcon, MailIcon, PhoneIcon, ResetIcon } from "@/components/ui/icons";

export interface CodeActionHandlers {
  onCopy: (record: AccessCodeRecord) => void;
  onSend: (record: AccessCodeRecord) => void;
  onResetDevice: (record: AccessCodeRecord) => void;
  onRevoke: (record: AccessCodeRecord) => void;
  onRestore: (record: AccessCodeRecord) => void;
}

/** The copy button beside a code. */
export function CopyCodeButton({ record, onCopy }: { record: AccessCodeRecord; onCopy: CodeActionHandlers["onCopy"] }) {
  return (
    <button type="button" className="btn btn-ghost btn-icon btn-sm codes-copy-button" onClick={() => onCopy(record)} aria-label={`Copy ${record.code}`} title="Copy">
      <CopyIcon />
    </button>
  );
}

/** Send, reset device and revoke (restore, once revoked) for one code: icon buttons in the table, labelled tiles on cards. */
export function CodeActions({ record, labelled, onCopy, onSend, onResetDevice, onRevoke, onRestore }: CodeActionHandlers & { record: AccessCodeRecord; labelled: boolean }) {
  const actions = [
    ...(labelled ? [{ label: "Copy", name: "Copy", Icon: CopyIcon, onClick: () => onCopy(record), disabled: false }] : []),
    { label: "Send", name: "Send", Icon: MailIcon, onClick: () => onSend(record), disabled: record.revoked },
    { label: "Reset", name: "Reset device", Icon: PhoneIcon, onClick: () => onResetDevice(record), disabled: record.revoked || !record.deviceBound },
    record.revoked
      ? // A pass its payment keeps revoked (refunded in full, disputed, an inquiry open) cannot be restored.
        { label: "Restore", name: "Restore", Icon: ResetIcon, onClick: () => onRestore(record), disabled: record.hold !== null }
      : { label: "Revoke", name: "Revoke", Icon: BanIcon, onClick: () => onRevoke(record), disabled: false },
  ];
  return (
    <>
      {actions.map(({ label, name, Icon, onClick, disabled }) => (
        <button
          key={name}
          type="button"
          className={labelled ? "btn btn-outline codes-action-tile" : "btn btn-ghost btn-icon btn-sm"}
          onClick={onClick}
          disabled={disabled}
          aria-label={`${name} ${record.code}`}
          title={labelled ? undefined : name}
        >
          <Icon />
          {labelled ? <span aria-hidden="true">{label}</span> : null}
        </button>
      ))}
    </>
  );
}
