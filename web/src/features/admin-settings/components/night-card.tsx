import { useId, useState, type FormEvent } from "react";
import type { EventPhase } from "@contracts/event-phase";
import { replayUntilOf } from "@contracts/replay";
import type { LivestreamSettings, PublicLivestreamSettings } from "@contracts/settings";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { AdminSection } from "@/components/admin/admin-section";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Switch } from "@/components/admin/switch";
import { FormField } from "@/components/ui/form-field";
import { ActivityIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { toast } from "@/hooks/use-toast";
import { ApiError, serverErrorMessage } from "@/lib/api-client";
import { formatEventDay, formatEventTime } from "@/lib/dates";
import { useLivestreamSettings } from "@/lib/livestream-settings";
import { useNightAction, useUpdateLivestreamSettings } from "../api/livestream-settings";
import { isoToLocalInput, localInputToIso } from "../lib/settings-form";

/** How often the card reads the phase again while it is open. */
const NIGHT_POLL_MS = 5000;

const dayAndTime = (iso: string) => `${formatEventDay(iso)}, ${formatEventTime(iso)}`;

const PHASE_LABEL: Record<EventPhase, string> = {
  upcoming: "Doors closed",
  preshow: "Pre-show",
  live: "Live",
  break: "On a break",
  ended: "Ended",
  replay: "Replay open",
  closed: "Closed",
};

/** What pass holders see now, said in one sentence for the phase the server is in. */
function phaseText(view: PublicLivestreamSettings): string {
  const onAir = view.night.onAir;
  switch (view.phase) {
    case "upcoming":
      return "Pass holders see the countdown and no player. What you publish now is a rehearsal: only this panel shows it, and it stays out of the replay unless you keep it.";
    case "preshow":
      return onAir
        ? "The doors are open early: pass holders are watching what you publish, before the start."
        : "The doors are open early: pass holders will see what you publish from the moment it arrives.";
    case "live":
      return onAir ? "Pass holders are watching, with the LIVE badge." : "The doors are open: the player waits for your stream, and pass holders read that it is about to begin.";
    case "break":
      return "Your stream has stopped. Pass holders read that it will be right back; the chat, hearts and donations stay open until you end the night.";
    case "ended":
      return view.replayEnabled
        ? "The night is over. Its replay opens as soon as a kept recording is ready."
        : "The night is over. There is no replay: pass holders read that it has ended.";
    case "replay":
      return `The night is over. Pass holders can watch its replay until ${dayAndTime(view.replayUntil)}.`;
    case "closed":
      return view.night.cancelledAt
        ? "The event is cancelled. Nothing is sold, the home page says so with your note, and every buyer with an e-mail address was written to. Open the doors to take it back."
        : "The night and its replay are over. Nothing is sold, and the home page says so.";
  }
}

/** What cancelling the event leads to, said before it is done. */
function cancelText(settings: LivestreamSettings): string {
  const sold = settings.hasSales ? " Every buyer with an e-mail address is written to, with your note and your contact address; refunds are yours to make, from Payments." : "";
  return `The event is called off: nothing is sold from now on, and the home page, the search engines and the calendar entries say it is cancelled.${sold} You can open the doors again if you cancel it by mistake.`;
}

/** What ending the night leads to, said before it is done. */
function endText(view: PublicLivestreamSettings, settings: LivestreamSettings): string {
  const until = dayAndTime(new Date(replayUntilOf(settings)).toISOString());
  const follows = view.replayEnabled
    ? `Pass holders then get the replay of the kept recordings, with the chat as it happened, until ${until}.`
    : "There is no replay: pass holders then read that the night has ended.";
  const sold = view.replayEnabled && settings.sellAfterNight ? " New visitors can buy a pass to the replay." : " No more passes are sold.";
  return `The live stream, the chat, hearts and donations close for everyone. ${follows}${sold} You can open the night again if you end it by mistake.`;
}

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

/**
 * The night: where it stands (the server's phase), the doors opened and the night ended with one action
 * each, its latest end and whether its replay is sold after it.
 */
export function NightCard({ settings }: { settings: LivestreamSettings }) {
  // The phase moves with the publisher too (a break, the stream back): read again every few seconds here.
  const view = useLivestreamSettings({ refetchInterval: NIGHT_POLL_MS }).data;
  const open = useNightAction("open");
  const end = useNightAction("end");
  const cancel = useNightAction("cancel");
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [note, setNote] = useState("");
  const save = useUpdateLivestreamSettings((error) => (refusedField(error) === "latestEnd" ? null : (serverErrorMessage(error) ?? "Failed to save the night's settings.")));
  const savedEnd = settings.latestEnd ? isoToLocalInput(settings.latestEnd) : "";
  const [latestEnd, setLatestEnd] = useState(savedEnd);
  const [sell, setSell] = useState(settings.sellAfterNight);
  const [shownFor, setShownFor] = useState(`${savedEnd}/${settings.sellAfterNight}`);
  const [error, setError] = useState<string | null>(null);
  const formId = useId();
  if (shownFor !== `${savedEnd}/${settings.sellAfterNight}`) {
    setShownFor(`${savedEnd}/${settings.sellAfterNight}`);
    setLatestEnd(savedEnd);
    setSell(settings.sellAfterNight);
  }
  const unsaved = latestEnd !== savedEnd || sell !== settings.sellAfterNight;
  const phase = view?.phase;
  const over = phase === "ended" || phase === "replay" || phase === "closed";
  const running = phase === "preshow" || phase === "live" || phase === "break";
  // A night that went live is ended, not cancelled: its replay is what its buyers paid for.
  const cancellable = (phase === "upcoming" || phase === "preshow") && !view?.night.wentLiveAt;
  const cancelled = Boolean(view?.night.cancelledAt);

  const onOpen = () =>
    open.mutate(undefined, {
      onSuccess: (after) =>
        toast({
          title: over && !cancelled ? "Night Opened Again" : "Doors Open",
          description: after.phase === "preshow" ? "Pass holders now see what you publish, before the start." : "Pass holders now see the stream.",
        }),
    });
  const onEnd = () =>
    end.mutate(undefined, {
      onSuccess: (after) => {
        setConfirming(false);
        toast({ title: "Night Ended", description: after.phase === "replay" ? "Pass holders now get the replay." : "Pass holders now read that the night is over." });
      },
    });
  const onCancel = () =>
    cancel.mutate(
      { note },
      {
        onSuccess: () => {
          setCancelling(false);
          setNote("");
          toast({
            title: "Event Cancelled",
            description: settings.hasSales ? "Nothing is sold from now on, and the buyers are being written to." : "Nothing is sold from now on.",
          });
        },
      },
    );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (latestEnd && Number.isNaN(new Date(latestEnd).getTime())) return setError("Please choose a date and time, or leave it empty");
    save.mutate(
      { latestEnd: latestEnd ? localInputToIso(latestEnd) : null, sellAfterNight: sell },
      {
        onSuccess: (saved) =>
          toast({
            title: "Night Saved",
            description: saved.latestEnd ? `The night ends by itself on ${dayAndTime(saved.latestEnd)}, if you have not ended it by then.` : "The night ends only when you end it.",
          }),
        onError: (failure) => {
          if (refusedField(failure) === "latestEnd") setError(serverErrorMessage(failure) ?? "This date cannot be used");
        },
      },
    );
  };

  return (
    <form id={formId} className="settings-night" onSubmit={onSubmit} noValidate aria-label="The night">
      <AdminSection
        icon={<ActivityIcon />}
        title="The night"
        text="Open the doors when the stream should reach pass holders, and end the night when it is over. A stream that stops before then is a break."
        saves={unsaved ? "Unsaved changes · saved with its own button, Save Night" : "The actions act at once; the rest is saved with Save Night"}
      >
        <div className="settings-night-now" data-phase={phase ?? "loading"} data-cancelled={cancelled ? "" : undefined} role="status">
          <span className="settings-night-phase">
            <span className="settings-night-dot" aria-hidden="true" />
            {phase ? (cancelled ? "Cancelled" : PHASE_LABEL[phase]) : "Loading…"}
          </span>
          {view ? <p className="settings-night-text">{phaseText(view)}</p> : null}
        </div>
        <div className="settings-night-actions">
          {phase && !running ? (
            <button type="button" className="btn btn-primary" onClick={onOpen} disabled={open.isPending}>
              {open.isPending ? "Opening…" : cancelled ? "Open the doors again" : over ? "Open the night again" : "Open the doors"}
            </button>
          ) : null}
          {cancellable ? (
            <button type="button" className="btn btn-ghost settings-night-cancel" onClick={() => setCancelling(true)} disabled={cancel.isPending}>
              Cancel the event
            </button>
          ) : null}
          {running ? (
            <button type="button" className="btn btn-outline settings-night-end" onClick={() => setConfirming(true)} disabled={end.isPending}>
              End the night
            </button>
          ) : null}
        </div>
        <FormField
          label="Latest end (optional)"
          type="datetime-local"
          hint="The night ends by itself at this time if you have not ended it. Empty: only when you end it."
          value={latestEnd}
          onChange={(event) => setLatestEnd(event.target.value)}
          error={error ?? undefined}
        />
        <Switch
          label="Sell the replay after the night"
          description={
            sell
              ? "On: while the replay is open, new visitors can buy a pass to it, and the home page and the payment say it is the replay."
              : "Off: once the night is over, nothing is sold."
          }
          checked={sell}
          onCheckedChange={setSell}
        />
        <div className="settings-night-save">
          <button type="submit" className="btn btn-outline" disabled={save.isPending || !unsaved}>
            {save.isPending ? "Saving…" : "Save Night"}
          </button>
        </div>
      </AdminSection>
      {view ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="End the night?"
          description={endText(view, settings)}
          confirmLabel="End the night"
          pendingLabel="Ending…"
          pending={end.isPending}
          onConfirm={onEnd}
        />
      ) : null}
      <AdminDialog open={cancelling} onOpenChange={setCancelling} title="Cancel the event?" description={cancelText(settings)} icon={<AlertIcon />} tone="danger">
        <div className="field">
          <label className="field-label" htmlFor={`${formId}-note`}>
            A word to the buyers (optional)
          </label>
          <textarea
            id={`${formId}-note`}
            className="input settings-night-note"
            rows={4}
            maxLength={TEXT_LIMITS.cancelNote}
            placeholder="Why, and what happens to their money"
            value={note}
            onChange={(event) => setNote(event.target.value)}
            aria-describedby={`${formId}-note-hint`}
          />
          <p id={`${formId}-note-hint`} className="field-hint">
            Shown on the home page and in the e-mail. {note.length} of {TEXT_LIMITS.cancelNote}.
          </p>
        </div>
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={() => setCancelling(false)}>
            Keep the event
          </button>
          <button type="button" className="btn btn-primary" onClick={onCancel} disabled={cancel.isPending}>
            {cancel.isPending ? "Cancelling…" : "Cancel the event"}
          </button>
        </div>
      </AdminDialog>
    </form>
  );
}
