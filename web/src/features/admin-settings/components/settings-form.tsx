import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useState, type ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import type { LivestreamSettings } from "@contracts/settings";
import { AdminSection } from "@/components/admin/admin-section";
import { Switch } from "@/components/admin/switch";
import { FormField } from "@/components/ui/form-field";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ImageIcon, SkullIcon } from "@/components/ui/icons";
import { DEFAULT_THUMBNAIL_URL } from "@/config/event";
import { toast } from "@/hooks/use-toast";
import { useUpdateLivestreamSettings } from "../api/livestream-settings";
import { useUploadThumbnail } from "../api/upload-thumbnail";
import { settingsFormSchema, toFormValues, toSettingsBody, type ChangedFields, type SettingsFormInput, type SettingsFormValues } from "../lib/settings-form";
import { OrganizerSection } from "./organizer-section";
import { PricingSection } from "./pricing-section";
import { ThumbnailField } from "./thumbnail-field";

/** The cards of this form, by the fields each holds: a card with a changed field says it is unsaved. */
const CARDS = {
  Event: ["eventTitle", "startDate", "durationMinutes", "isActive", "remindersEnabled"],
  Thumbnail: ["thumbnailUrl"],
  "Price & donations": ["currency", "accessPrice", "donationGoal"],
  Organiser: ["organizerName", "contactEmail", "privacyUrl", "termsUrl", "socialLinks"],
} as const satisfies Record<string, (keyof SettingsFormValues)[]>;
type Card = keyof typeof CARDS;

/** The cards holding changes not saved yet, in page order. */
function unsavedCards(changed: ChangedFields): Card[] {
  return (Object.keys(CARDS) as Card[]).filter((card) => CARDS[card].some((name) => isChanged(changed[name])));
}

const isChanged = (mark: ChangedFields[keyof ChangedFields]): boolean => mark === true || (typeof mark === "object" && Object.values(mark).some(Boolean));

/** "Event", "Event and Organiser", "Event, Thumbnail and Organiser". */
const listed = (names: string[]) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** What the Livestream active switch does, said for its position (and a start date still ahead). */
/** What the switch means, as the night's phases read it: the doors open or closed. */
function activeDescription(active: boolean, startDate: string): string {
  if (!active) return "Off: the doors are closed. Pass holders see no player; what you publish is a rehearsal only the panel shows.";
  const ahead = new Date(startDate).getTime() - Date.now();
  const days = Math.floor(ahead / 86_400_000);
  if (ahead > 60_000) {
    const away = days >= 1 ? `${days} ${days === 1 ? "day" : "days"}` : "less than a day";
    return `On: the doors are open early (the start is ${away} away). Pass holders see whatever you publish now; turn this off to rehearse unseen.`;
  }
  return "On: the doors are open. Pass holders see the player and the LIVE badge while you publish.";
}

/**
 * The livestream settings form; the thumbnail upload and reset save on their own. `aside` goes under the
 * thumbnail (a control with its own save, kept out of this form's submit).
 */
export function SettingsForm({ settings, aside }: { settings: LivestreamSettings; aside?: ReactNode }) {
  const form = useForm<SettingsFormInput, unknown, SettingsFormValues>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: toFormValues(settings),
  });
  const save = useUpdateLivestreamSettings("Failed to update livestream settings.");
  const saveUploaded = useUpdateLivestreamSettings("Failed to update settings with new thumbnail.");
  const saveDefault = useUpdateLivestreamSettings("Failed to reset thumbnail.");
  const upload = useUploadThumbnail();
  const [thumbnailBusy, setThumbnailBusy] = useState<"upload" | "reset" | null>(null);
  /** A currency change after the first sale, waiting for the admin's Confirm?. */
  const [pendingCurrency, setPendingCurrency] = useState<SettingsFormValues | null>(null);
  const { errors, dirtyFields } = form.formState;
  const unsaved = unsavedCards(dirtyFields as ChangedFields);

  const submit = (values: SettingsFormValues, confirmCurrencyChange?: boolean) =>
    save.mutate(
      { ...toSettingsBody(values, form.formState.dirtyFields as ChangedFields), confirmCurrencyChange },
      {
        onSuccess: (saved) => {
          setPendingCurrency(null);
          form.reset(toFormValues(saved));
          toast({ title: "Settings Saved", description: "The livestream settings have been updated." });
        },
      },
    );
  const onSubmit = form.handleSubmit((values) => {
    if (settings.hasSales && values.currency !== settings.currency) setPendingCurrency(values);
    else submit(values);
  });

  /** Saves the new thumbnail alone, leaving other unsaved edits in the form. */
  const storeThumbnail = (saveThumbnail: typeof saveUploaded, thumbnailUrl: string, onSuccess: () => void) =>
    saveThumbnail.mutate(
      { thumbnailUrl },
      {
        onSuccess: () => {
          form.resetField("thumbnailUrl", { defaultValue: thumbnailUrl });
          onSuccess();
        },
        onSettled: () => setThumbnailBusy(null),
      },
    );

  const onUpload = (file: File) => {
    if (!file.type.startsWith("image/")) {
      toast({ variant: "destructive", title: "Invalid file type", description: "Please upload an image file (JPEG, PNG, GIF, etc.)." });
      return;
    }
    setThumbnailBusy("upload");
    upload.mutate(file, {
      onSuccess: ({ thumbnailUrl }) =>
        storeThumbnail(saveUploaded, thumbnailUrl, () => toast({ title: "Upload Successful", description: "The new thumbnail is saved and shown on the home page." })),
      onError: () => setThumbnailBusy(null),
    });
  };

  const onResetThumbnail = () => {
    setThumbnailBusy("reset");
    storeThumbnail(saveDefault, DEFAULT_THUMBNAIL_URL, () => toast({ title: "Reset Successful", description: "The default thumbnail is back." }));
  };

  return (
    <form className="settings-form" onSubmit={onSubmit} noValidate aria-label="Livestream settings">
      <div className="settings-columns">
        <div className="settings-column">
          <AdminSection
            icon={<SkullIcon />}
            title="Event"
            text="What viewers see before and during the event."
            saves="Saved with Save Settings"
            unsaved={unsaved.includes("Event")}
          >
            <FormField label="Event title" autoComplete="off" maxLength={TEXT_LIMITS.eventTitle} error={errors.eventTitle?.message} {...form.register("eventTitle")} />
            <FormField
              label="Start date"
              type="datetime-local"
              hint="In your time zone. The home page counts down to it."
              error={errors.startDate?.message}
              {...form.register("startDate")}
            />
            <FormField
              label="Length (minutes)"
              type="number"
              inputMode="numeric"
              min={15}
              step={5}
              hint="Where the calendar entry and the search engines' event end: 120 is two hours."
              error={errors.durationMinutes?.message}
              {...form.register("durationMinutes", { valueAsNumber: true })}
            />
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <Switch label="Livestream active" description={activeDescription(field.value, form.watch("startDate"))} checked={field.value} onCheckedChange={field.onChange} />
              )}
            />
            <Controller
              control={form.control}
              name="remindersEnabled"
              render={({ field }) => (
                <Switch
                  label="Reminders"
                  description={
                    field.value
                      ? "On: buyers with an e-mail address are reminded 24 hours and 15 minutes before the start, with their code and the calendar file."
                      : "Off: buyers get no reminders before the start."
                  }
                  checked={field.value}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </AdminSection>
          <PricingSection form={form} hasSales={settings.hasSales} unsaved={unsaved.includes("Price & donations")} />
          <OrganizerSection form={form} unsaved={unsaved.includes("Organiser")} />
        </div>
        <div className="settings-column">
          <AdminSection
            icon={<ImageIcon />}
            title="Thumbnail"
            text="The banner image of the home page."
            saves="Upload and Reset save at once; a typed path with Save Settings"
            unsaved={unsaved.includes("Thumbnail")}
          >
            <ThumbnailField form={form} uploading={thumbnailBusy === "upload"} resetting={thumbnailBusy === "reset"} onUpload={onUpload} onReset={onResetThumbnail} />
          </AdminSection>
          {aside}
        </div>
      </div>
      <div className="settings-savebar" data-dirty={unsaved.length > 0 || undefined}>
        <p className="settings-savebar-text" aria-live="polite">
          {unsaved.length > 0 ? `You have unsaved changes in ${listed(unsaved)}.` : "All changes saved."}
          <span className="settings-savebar-scope"> Save Settings saves Event, Thumbnail path, Price & donations and Organiser; the other cards save on their own.</span>
        </p>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save Settings"}
        </button>
      </div>
      <ConfirmDialog
        open={pendingCurrency !== null}
        onOpenChange={(open) => !open && setPendingCurrency(null)}
        title="Change the currency?"
        description={`Payments have already been taken in ${settings.currency.toUpperCase()}. New passes and donations will be in ${pendingCurrency?.currency.toUpperCase()}; amounts already paid keep their currency, and the donation total counts only ${pendingCurrency?.currency.toUpperCase()}.`}
        confirmLabel="Change currency"
        pendingLabel="Saving..."
        pending={save.isPending}
        onConfirm={() => pendingCurrency && submit(pendingCurrency, true)}
      />
    </form>
  );
}
