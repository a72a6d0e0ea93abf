import { useId, useState, type FormEvent } from "react";
import type { EventPhase } from "@contracts/event-phase";
import { replayUntilOf } from "@contracts/replay";
import type { LivestreamSettings, PublicLivestreamSettings } from "@contracts/settings";
import { AdminSection } from "@/components/admin/admin-section";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Switch } from "@/components/admin/switch";
import { FormField } from "@/components/ui/form-field";
import { ActivityIcon } from "@/components/ui/icons";
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
      return "The night and its replay are over. Nothing is sold, and the home page says so.";
  }
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
  const [confirming, setConfirming] = useState(false);
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

  const onOpen = () =>
    open.mutate(undefined, {
      onSuccess: (after) =>
        toast({
          title: over ? "Night Opened Again" : "Doors Open",
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
        <div className="settings-night-now" data-phase={phase ?? "loading"} role="status">
          <span className="settings-night-phase">
            <span className="settings-night-dot" aria-hidden="true" />
            {phase ? PHASE_LABEL[phase] : "Loading…"}
          </span>
          {view ? <p className="settings-night-text">{phaseText(view)}</p> : null}
        </div>
        <div className="settings-night-actions">
          {phase && !running ? (
            <button type="button" className="btn btn-primary" onClick={onOpen} disabled={open.isPending}>
              {open.isPending ? "Opening…" : over ? "Open the night again" : "Open the doors"}
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
    </form>
  );
}
