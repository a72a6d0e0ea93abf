import { useState, type FormEvent } from "react";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { KeyIcon, TrashIcon } from "@/components/ui/icons";
import { serverErrorMessage } from "@/lib/api-client";
import { formatDate, formatDateTime } from "@/lib/dates";
import { webauthnSupported } from "@/lib/webauthn";
import { useAddPasskey, useRemovePasskey, type Passkey } from "../api/two-factor";

/** The member's passkeys and security keys, each with when it was added and last used, and Remove. */
export function PasskeyList({ passkeys, canRemoveLast }: { passkeys: Passkey[]; canRemoveLast: boolean }) {
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<Passkey | null>(null);
  if (passkeys.length === 0) return null;
  const lastOne = passkeys.length === 1 && !canRemoveLast;
  return (
    <>
      <ul className="security-keys" aria-label="Passkeys and security keys">
        {passkeys.map((key) => (
          <li key={key.id} className="security-key">
            <span className="security-key-icon" aria-hidden="true">
              <KeyIcon />
            </span>
            <span className="security-key-text">
              <span className="security-key-name">{key.name}</span>
              <span className="security-muted">
                Added {formatDate(key.createdAt)} · {key.lastUsedAt ? `last used ${formatDateTime(key.lastUsedAt)}` : "not used yet"}
              </span>
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => setRemoving(key)}
              disabled={lastOne}
              title={lastOne ? "The team requires two-factor sign-in: add another factor first" : undefined}
              aria-label={`Remove ${key.name}`}
            >
              <TrashIcon />
              <span className="security-hide-narrow">Remove</span>
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove this key?"
        description={
          removing ? `"${removing.name}" will no longer sign you in.${passkeys.length === 1 ? " It is your last key: with no app either, two-factor sign-in turns off." : ""}` : ""
        }
        confirmLabel="Remove Key"
        pendingLabel="Removing..."
        pending={remove.isPending}
        icon={<KeyIcon />}
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
      />
    </>
  );
}

/** Names and adds a passkey or security key; the first one also answers recovery codes. */
export function AddPasskey({ enrolling, onAdded, onCancel }: { enrolling: boolean; onAdded: (recoveryCodes: string[] | null) => void; onCancel: () => void }) {
  const add = useAddPasskey(enrolling);
  const [name, setName] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  if (!webauthnSupported()) {
    return (
      <div className="security-setup">
        <Alert variant="error">This browser cannot use passkeys or security keys. Try a current Chrome, Safari, Firefox or Edge.</Alert>
        <div className="security-actions">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            Close
          </button>
        </div>
      </div>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    add.mutate(name, {
      onSuccess: ({ recoveryCodes }) => onAdded(recoveryCodes),
      onError: (error) => setFailure(serverErrorMessage(error) ?? error.message),
    });
  };

  return (
    <form className="security-setup" onSubmit={onSubmit} noValidate aria-label="Add a passkey or security key">
      <p className="security-muted">
        Name it so you can tell your keys apart, then follow your browser: touch your security key, or confirm with your fingerprint, face or screen lock.
      </p>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      <FormField
        label="Name"
        placeholder="e.g. YubiKey, MacBook Touch ID"
        maxLength={TEXT_LIMITS.passkeyName}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="security-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={add.isPending}>
          <KeyIcon />
          {add.isPending ? "Waiting for your key..." : "Add Key"}
        </button>
      </div>
    </form>
  );
}
