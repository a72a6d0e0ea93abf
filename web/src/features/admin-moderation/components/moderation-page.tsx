import { useState } from "react";
import { MODERATION_ACTIONS, type ModerationAction } from "@contracts/moderation";
import { LoadFailed } from "@/components/admin/load-failed";
import { SearchField } from "@/components/admin/search-field";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { DownloadIcon, ShieldIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { useMediaQuery } from "@/hooks/use-media-query";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useCan } from "@/lib/admin-auth";
import { matchesSearch } from "@/lib/search";
import { useChatRules } from "../api/chat-rules";
import { CHAT_EXPORT_CSV_URL, CHAT_EXPORT_JSON_URL, moderationLogCsvUrl, useModerationLog } from "../api/moderation-log";
import { ActiveTimeouts } from "./active-timeouts";
import { ChatRulesCard } from "./chat-rules-card";
import { ACTION_LABELS, ModerationLogList } from "./moderation-log-list";

/** The chat's rules, who is timed out, the moderation log (search, action filter, CSV) and the chat export. */
export function ModerationPage() {
  const maySetRules = useCan("chatRules");
  const rules = useChatRules(maySetRules);
  const log = useModerationLog();
  useQueryErrorToast(rules, "Failed to load the chat rules.");
  useQueryErrorToast(log, "Failed to load the moderation log.");
  const asCards = !useMediaQuery("(min-width: 1100px)");
  const [search, setSearch] = useState("");
  const [action, setAction] = useState<ModerationAction | "">("");
  const all = log.data?.entries ?? [];
  const shown = all.filter((e) => (!action || e.action === action) && matchesSearch(search, e.moderator, e.target, e.messageText, e.detail));
  const filtered = Boolean(search.trim() || action);

  return (
    <>
      <AdminPageHeader
        title="Moderation"
        description="Chat rules, timeouts and a record of every moderator action."
        actions={
          <>
            <a className="btn btn-outline" href={CHAT_EXPORT_CSV_URL} download>
              <DownloadIcon />
              Chat CSV
            </a>
            <a className="btn btn-outline" href={CHAT_EXPORT_JSON_URL} download>
              <DownloadIcon />
              Chat JSON
            </a>
          </>
        }
      />
      <div className="moderation-grid">
        {!maySetRules ? null : rules.data ? (
          <ChatRulesCard rules={rules.data} />
        ) : rules.isError ? (
          <section className="card panel">
            <LoadFailed icon={<ShieldIcon />} title="The chat rules could not be loaded" onRetry={() => void rules.refetch()} />
          </section>
        ) : (
          <PageLoader label="Loading chat rules…" />
        )}
        <ActiveTimeouts />
      </div>
      <section className="card list-panel moderation-log" aria-labelledby="log-heading">
        <h2 id="log-heading" className="moderation-log-title">
          Moderation log
        </h2>
        <div className="admin-toolbar">
          <SearchField label="Search the log" placeholder="Name, message or detail…" value={search} onChange={setSearch} />
          <label className="sr-only" htmlFor="log-action">
            Action
          </label>
          <select
            id="log-action"
            className="input moderation-select moderation-log-action-filter"
            value={action}
            onChange={(e) => setAction(e.target.value as ModerationAction | "")}
          >
            <option value="">All actions</option>
            {MODERATION_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABELS[a]}
              </option>
            ))}
          </select>
          <a className="btn btn-outline" href={moderationLogCsvUrl(action, search)} download>
            <DownloadIcon />
            Export CSV
          </a>
          {log.data ? (
            <p className="admin-toolbar-count" aria-live="polite">
              {filtered ? `${shown.length} of ${all.length} entries` : `${all.length} ${all.length === 1 ? "entry" : "entries"}`}
            </p>
          ) : null}
        </div>
        {log.isPending ? (
          <PageLoader label="Loading the moderation log…" />
        ) : log.isError ? (
          <LoadFailed icon={<ShieldIcon />} title="The moderation log could not be loaded" onRetry={() => void log.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState icon={<ShieldIcon />} title={all.length === 0 ? "Nothing moderated yet" : "No entries match"}>
            {all.length === 0 ? "Deletes, pins, kicks, bans, timeouts, rule changes and filtered messages are recorded here." : "Try another search or action."}
          </EmptyState>
        ) : (
          <ModerationLogList entries={shown} asCards={asCards} />
        )}
      </section>
    </>
  );
}
