import { useState, type FormEvent } from "react";
import { describeDuration, SLOW_MODE_CHOICES } from "@contracts/chat-limits";
import { MAX_BLOCKED_TERMS, type ChatRules } from "@contracts/moderation";
import { AdminSection } from "@/components/admin/admin-section";
import { Switch } from "@/components/admin/switch";
import { ShieldIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { useSaveChatRules } from "../api/chat-rules";

/** The terms as typed: one per line (or separated by commas), blanks dropped. */
export function parseTerms(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Slow mode, blocked words (block or mask) and links: saved together, applied to the next chat line. */
export function ChatRulesCard({ rules }: { rules: ChatRules }) {
  const save = useSaveChatRules();
  const [slowModeSeconds, setSlowModeSeconds] = useState(rules.slowModeSeconds);
  const [terms, setTerms] = useState(rules.blockedTerms.join("\n"));
  const [filterAction, setFilterAction] = useState(rules.filterAction);
  const [blockLinks, setBlockLinks] = useState(rules.blockLinks);
  const count = parseTerms(terms).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { slowModeSeconds, blockedTerms: parseTerms(terms), filterAction, blockLinks },
      {
        onSuccess: (saved) => {
          setTerms(saved.blockedTerms.join("\n"));
          toast({ title: "Chat Rules Saved", description: "They apply to the next message in the chat." });
        },
      },
    );
  };

  return (
    <AdminSection icon={<ShieldIcon />} title="Chat rules" text="Applied by the server to every message, at once and without a restart.">
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor="slow-mode">
            Slow mode
          </label>
          <select id="slow-mode" className="input moderation-select" value={slowModeSeconds} onChange={(e) => setSlowModeSeconds(Number(e.target.value))}>
            {SLOW_MODE_CHOICES.map((s) => (
              <option key={s} value={s}>
                {s === 0 ? "Off" : `One message every ${describeDuration(s)}`}
              </option>
            ))}
          </select>
          <p className="field-hint">Per person. Moderators and admins are exempt.</p>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="blocked-terms">
            Blocked words
          </label>
          <textarea
            id="blocked-terms"
            className="input moderation-rules-terms"
            rows={6}
            spellCheck={false}
            placeholder={"One word or phrase per line"}
            value={terms}
            onChange={(e) => setTerms(e.target.value)}
            aria-describedby="blocked-terms-hint"
          />
          <p id="blocked-terms-hint" className="field-hint">
            {count} of {MAX_BLOCKED_TERMS}. Whole words, whatever the case, accents, full-width letters or look-alike digits (h4te = hate).
          </p>
        </div>
        <fieldset className="choice-group">
          <legend className="field-label">When a message has a blocked word</legend>
          <label className="choice">
            <input type="radio" name="filter-action" value="block" checked={filterAction === "block"} onChange={() => setFilterAction("block")} />
            <span className="choice-title">Block</span>
            <span className="choice-text">Not sent; only the sender is told.</span>
          </label>
          <label className="choice">
            <input type="radio" name="filter-action" value="mask" checked={filterAction === "mask"} onChange={() => setFilterAction("mask")} />
            <span className="choice-title">Mask</span>
            <span className="choice-text">Sent with the word as ****.</span>
          </label>
        </fieldset>
        <Switch
          label="Block links"
          description={blockLinks ? "Viewers' messages with web addresses are refused. Moderators may post links." : "Anyone may post web addresses."}
          checked={blockLinks}
          onCheckedChange={setBlockLinks}
        />
        <div className="moderation-rules-actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save Chat Rules"}
          </button>
        </div>
      </form>
    </AdminSection>
  );
}
