import { useId, useState, type FormEvent } from "react";
import { DEFAULT_REPLAY_DAYS, replayUntilOf } from "@contracts/replay";
import type { LivestreamSettings } from "@contracts/settings";
import { AdminSection } from "@/components/admin/admin-section";
import { Switch } from "@/components/admin/switch";
import { FormField } from "@/components/ui/form-field";
import { RewindIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { ApiError, serverErrorMessage } from "@/lib/api-client";
import { formatEventDay, formatEventTime } from "@/lib/dates";
import { useUpdateLivestreamSettings } from "../api/livestream-settings";
import { isoToLocalInput, localInputToIso } from "../lib/settings-form";

/** The field a refusal names (`{ field }`), when it names one. */
function refusedField(error: Error): string | null {
  if (!(error instanceof ApiError)) return null;
  try {
    const body = JSON.parse(error.bodyText) as { field?: unknown };
    return typeof body.field === "string" ? body.field : null;
  } catch {
    return null;
  }
}

const dayAndTime = (ms: number) => {
  const iso = new Date(ms).toISOString();
  return `${formatEventDay(iso)}, ${formatEventTime(iso)}`;
};

/**
 * The replay: whether pass holders watch the night's recordings after it, and until when (empty: seven days
 * after the start). Saved with its own button; the server's refusal of a date is shown under the field.
 */
export function ReplayCard({ settings }: { settings: LivestreamSettings }) {
  const save = useUpdateLivestreamSettings((error) => (refusedField(error) === "replayUntil" ? null : (serverErrorMessage(error) ?? "Failed to save the replay settings.")));
  const savedUntil = settings.replayUntil ? isoToLocalInput(settings.replayUntil) : "";
  const [enabled, setEnabled] = useState(settings.replayEnabled);
  const [until, setUntil] = useState(savedUntil);
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState(`${settings.replayEnabled}/${savedUntil}`);
  const formId = useId();
  // Saved from elsewhere (another tab): the card follows.
  if (shownFor !== `${settings.replayEnabled}/${savedUntil}`) {
    setShownFor(`${settings.replayEnabled}/${savedUntil}`);
    setEnabled(settings.replayEnabled);
    setUntil(savedUntil);
  }
  const unsaved = enabled !== settings.replayEnabled || until !== savedUntil;
  const byDefault = dayAndTime(replayUntilOf({ replayUntil: null, startDate: settings.startDate }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (until && Number.isNaN(new Date(until).getTime())) return setError("Please choose a date and time, or leave it empty");
    save.mutate(
      { replayEnabled: enabled, replayUntil: until ? localInputToIso(until) : null },
      {
        onSuccess: (saved) =>
          toast({
            title: "Replay Saved",
            description: saved.replayEnabled
              ? `Pass holders can watch the replay until ${dayAndTime(replayUntilOf(saved))}.`
              : "Pass holders will not be offered a replay after the night.",
          }),
        onError: (failure) => {
          if (refusedField(failure) === "replayUntil") setError(serverErrorMessage(failure) ?? "This date cannot be used");
        },
      },
    );
  };

  return (
    <form id={formId} className="settings-replay" onSubmit={onSubmit} noValidate aria-label="Replay">
      <AdminSection
        icon={<RewindIcon />}
        title="Replay"
        text="After the night, pass holders can watch the built-in ingest's recordings with the chat as it happened."
        saves={unsaved ? "Unsaved changes · saved with its own button, Save Replay" : "Saved with its own button, Save Replay"}
      >
        <Switch
          label="Replay after the event"
          description={enabled ? "On: once you end the night (in The night card), pass holders watch the kept recordings." : "Off: after the night, pass holders see no replay."}
          checked={enabled}
          onCheckedChange={setEnabled}
        />
        <FormField
          label="Available until"
          type="datetime-local"
          value={until}
          onChange={(event) => {
            setUntil(event.target.value);
            setError(null);
          }}
          disabled={!enabled}
          hint={`In your time zone. Empty: ${DEFAULT_REPLAY_DAYS} days after the start (${byDefault}).`}
          error={error ?? undefined}
        />
        <div className="settings-replay-actions">
          {until ? (
            <button type="button" className="btn btn-ghost" onClick={() => setUntil("")} disabled={!enabled}>
              Clear date
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save Replay"}
          </button>
        </div>
      </AdminSection>
    </form>
  );
}
