import { useState } from "react";
import { useSearchParams } from "wouter";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ListPager, useListPage } from "@/components/admin/list-pager";
import { SearchField } from "@/components/admin/search-field";
import { LoadFailed } from "@/components/admin/load-failed";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { BanIcon, DownloadIcon, KeyIcon, PhoneIcon, PlusIcon, ResetIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { useMediaQuery } from "@/hooks/use-media-query";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { toast, toastError } from "@/hooks/use-toast";
import { matchesSearch } from "@/lib/search";
import { ACCESS_CODES_CSV_URL, useAccessCodes } from "../api/get-access-codes";
import { useResetDevice } from "../api/reset-device";
import { useRestoreAccessCode } from "../api/restore-access-code";
import { useRevokeAccessCode } from "../api/revoke-access-code";
import { AccessCodeList } from "./access-code-list";
import { GenerateCodeDialog } from "./generate-code-dialog";
import { SendCodeDialog } from "./send-code-dialog";

type Action = "revoke" | "restore" | "reset";
type Confirming = { action: Action; record: AccessCodeRecord } | null;

/** What each confirmation asks and says. */
const CONFIRM: Record<Action, { Icon: typeof BanIcon; title: string; describe: (code: string) => string; confirmLabel: string; pendingLabel: string }> = {
  revoke: {
    Icon: BanIcon,
    title: "Revoke this access code?",
    describe: (code) => `${code} will stop working at once, and anyone watching with it is signed out. You can restore it later.`,
    confirmLabel: "Revoke code",
    pendingLabel: "Revoking...",
  },
  restore: {
    Icon: ResetIcon,
    title: "Restore this access code?",
    describe: (code) => `${code} will work again: its holder can enter it and watch. A pass refunded in full or disputed stays revoked.`,
    confirmLabel: "Restore code",
    pendingLabel: "Restoring...",
  },
  reset: {
    Icon: PhoneIcon,
    title: "Reset device binding?",
    describe: (code) => `${code} will work on the next device that uses it. Do this for a buyer who changed phone or browser.`,
    confirmLabel: "Reset device",
    pendingLabel: "Resetting...",
  },
};

async function copyCode(record: AccessCodeRecord) {
  try {
    await navigator.clipboard.writeText(record.code);
    toast({ title: "Copied!", description: `${record.code} is on your clipboard.` });
  } catch {
    toastError("Could not copy the code. Select it and copy it by hand.");
  }
}

/** Access codes: list, search on code, generate, send by e-mail, copy, revoke and restore, reset the device, CSV. */
export function AccessCodesPage() {
  const codes = useAccessCodes();
  useQueryErrorToast(codes, "Failed to fetch access codes.");
  // The seven columns need about 830px beside the sidebar; narrower screens get cards.
  const asCards = !useMediaQuery("(min-width: 1240px)");
  // `?search=` opens the list searched (the Refund dialog links a revoked pass here).
  const [params] = useSearchParams();
  const [search, setSearch] = useState(() => params.get("search") ?? "");
  const [generating, setGenerating] = useState(false);
  const [sending, setSending] = useState<AccessCodeRecord | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [highlightId, setHighlightId] = useState<number | null>(null);
  const revoke = useRevokeAccessCode();
  const restore = useRestoreAccessCode();
  const resetDevice = useResetDevice();

  const all = codes.data ?? [];
  const shown = all.filter((c) => matchesSearch(search, c.code));
  // A code just generated is the newest: the first page, where it is highlighted.
  const list = useListPage(shown, `${search.trim()}|${highlightId ?? ""}`);

  const asked = CONFIRM[confirming?.action ?? "revoke"];

  const onConfirm = () => {
    if (!confirming) return;
    const { action, record } = confirming;
    const done = { onSettled: () => setConfirming(null) };
    if (action === "revoke") {
      revoke.mutate(record.id, {
        ...done,
        onSuccess: () => toast({ title: "Code Revoked", description: `${record.code} no longer works.` }),
      });
    } else if (action === "restore") {
      restore.mutate(record.id, {
        ...done,
        onSuccess: (restored) => {
          toast({ title: "Code Restored", description: `${record.code} works again.` });
          // Its buyer was likely told it no longer works: offer to send it to them again.
          if (restored.email) setSending(restored);
        },
      });
    } else {
      resetDevice.mutate(record.id, {
        ...done,
        onSuccess: () => toast({ title: "Device Reset", description: `${record.code} can now be used on a new device.` }),
      });
    }
  };

  return (
    <>
      <AdminPageHeader
        title="Access Codes"
        description="Generate codes, send them by e-mail and copy them."
        actions={
          <>
            <a className="btn btn-outline" href={ACCESS_CODES_CSV_URL} download>
              <DownloadIcon />
              Export CSV
            </a>
            <button type="button" className="btn btn-primary" onClick={() => setGenerating(true)}>
              <PlusIcon />
              Generate Code
            </button>
          </>
        }
      />
      <section ref={list.topRef} className="card list-panel" aria-labelledby="codes-heading">
        <h2 id="codes-heading" className="sr-only">
          All access codes
        </h2>
        <div className="admin-toolbar">
          <SearchField label="Search codes" placeholder="Search by code…" value={search} onChange={setSearch} />
          {codes.data ? (
            <p className="admin-toolbar-count" aria-live="polite">
              {search.trim() ? `${shown.length} of ${all.length} codes` : `${all.length} ${all.length === 1 ? "code" : "codes"}`}
            </p>
          ) : null}
        </div>
        {codes.isPending ? (
          <PageLoader label="Loading access codes…" />
        ) : codes.isError ? (
          <LoadFailed icon={<KeyIcon />} title="The access codes could not be loaded" onRetry={() => void codes.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState icon={<KeyIcon />} title={all.length === 0 ? "No access codes yet" : "No codes match your search"}>
            {all.length === 0 ? "Every code bought or generated for this event is listed here." : `Nothing contains "${search.trim()}".`}
          </EmptyState>
        ) : (
          <>
            <AccessCodeList
              codes={list.rows}
              asCards={asCards}
              highlightId={highlightId}
              onCopy={copyCode}
              onSend={setSending}
              onResetDevice={(record) => setConfirming({ action: "reset", record })}
              onRevoke={(record) => setConfirming({ action: "revoke", record })}
              onRestore={(record) => setConfirming({ action: "restore", record })}
            />
            <ListPager list={list} noun="codes" />
          </>
        )}
      </section>

      <GenerateCodeDialog open={generating} onOpenChange={setGenerating} onCopy={copyCode} onGenerated={(record) => setHighlightId(record.id)} />
      <SendCodeDialog record={sending} onOpenChange={(open) => !open && setSending(null)} />
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        icon={<asked.Icon />}
        title={asked.title}
        description={asked.describe(confirming?.record.code ?? "")}
        confirmLabel={asked.confirmLabel}
        pendingLabel={asked.pendingLabel}
        pending={revoke.isPending || restore.isPending || resetDevice.isPending}
        onConfirm={onConfirm}
      />
    </>
  );
}
