import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import type { LivestreamSettings } from "@contracts/settings";
import { Switch } from "@/components/admin/switch";
import { FormField } from "@/components/ui/form-field";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ImageIcon, SkullIcon, TvIcon } from "@/components/ui/icons";
import { DEFAULT_THUMBNAIL_URL } from "@/config/event";
import { toast } from "@/hooks/use-toast";
import { useUpdateLivestreamSettings } from "../api/livestream-settings";
import { useUploadThumbnail } from "../api/upload-thumbnail";
import { savedBody, settingsFormSchema, toFormValues, toSettingsBody, type SettingsFormInput, type SettingsFormValues } from "../lib/settings-form";
import { EmbedUrlField } from "./embed-url-field";
import { PricingSection } from "./pricing-section";
import { SettingsSection } from "./settings-section";
import { ThumbnailField } from "./thumbnail-field";

const error = (description: string) => toast({ variant: "destructive", title: "Error", description });

/**
 * The livestream settings form; the thumbnail upload and reset save on their own. `aside` goes under the
 * thumbnail (a control with its own save, kept out of this form's submit).
 */
export function SettingsForm({ settings, aside }: { settings: LivestreamSettings; aside?: ReactNode }) {
  const form = useForm<SettingsFormInput, unknown, SettingsFormValues>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: toFormValues(settings),
  });
  const save = useUpdateLivestreamSettings();
  const saveThumbnail = useUpdateLivestreamSettings();
  const upload = useUploadThumbnail();
  const [thumbnailBusy, setThumbnailBusy] = useState<"upload" | "reset" | null>(null);
  /** A currency change after the first sale, waiting for the admin's Confirm?. */
  const [pendingCurrency, setPendingCurrency] = useState<SettingsFormValues | null>(null);
  const { errors, isDirty } = form.formState;

  const submit = (values: SettingsFormValues, confirmCurrencyChange?: boolean) =>
    save.mutate(
      { ...toSettingsBody(values), confirmCurrencyChange },
      {
        onSuccess: (saved) => {
          setPendingCurrency(null);
          form.reset(toFormValues(saved));
          toast({ title: "Settings Saved", description: "The livestream settings have been updated." });
        },
        onError: () => error("Failed to update livestream settings."),
      },
    );
  const onSubmit = form.handleSubmit((values) => {
    if (settings.hasSales && values.currency !== settings.currency) setPendingCurrency(values);
    else submit(values);
  });

  /** Saves the last saved settings with a new thumbnail, leaving other unsaved edits in the form. */
  const storeThumbnail = (thumbnailUrl: string, onSuccess: () => void, failure: string) =>
    saveThumbnail.mutate(savedBody(settings, { thumbnailUrl }), {
      onSuccess: () => {
        form.resetField("thumbnailUrl", { defaultValue: thumbnailUrl });
        onSuccess();
      },
      onError: () => error(failure),
      onSettled: () => setThumbnailBusy(null),
    });

  const onUpload = (file: File) => {
    if (!file.type.startsWith("image/")) {
      toast({ variant: "destructive", title: "Invalid file type", description: "Please upload an image file (JPEG, PNG, GIF, etc.)." });
      return;
    }
    setThumbnailBusy("upload");
    upload.mutate(file, {
      onSuccess: ({ thumbnailUrl }) =>
        storeThumbnail(
          thumbnailUrl,
          () => toast({ title: "Upload Successful", description: "The new thumbnail is saved and shown on the home page." }),
          "Failed to update settings with new thumbnail.",
        ),
      onError: () => {
        setThumbnailBusy(null);
        error("Failed to upload thumbnail.");
      },
    });
  };

  const onResetThumbnail = () => {
    setThumbnailBusy("reset");
    storeThumbnail(DEFAULT_THUMBNAIL_URL, () => toast({ title: "Reset Successful", description: "The default thumbnail is back." }), "Failed to reset thumbnail.");
  };

  return (
    <form className="settings-form" onSubmit={onSubmit} noValidate aria-label="Livestream settings">
      <div className="settings-columns">
        <div className="settings-column">
          <SettingsSection icon={<SkullIcon />} title="Event" text="What viewers see before and during the event.">
            <FormField label="Event title" autoComplete="off" error={errors.eventTitle?.message} {...form.register("eventTitle")} />
            <FormField
              label="Start date"
              type="datetime-local"
              hint="In your time zone. The home page counts down to it."
              error={errors.startDate?.message}
              {...form.register("startDate")}
            />
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <Switch
                  label="Livestream active"
                  description={field.value ? "The event is live: viewers with a code can watch." : "The event is not live yet."}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </SettingsSection>
          <SettingsSection icon={<TvIcon />} title="Stream" text="The player embedded on the livestream page.">
            <EmbedUrlField form={form} />
          </SettingsSection>
          <PricingSection form={form} hasSales={settings.hasSales} />
        </div>
        <div className="settings-column">
          <SettingsSection icon={<ImageIcon />} title="Thumbnail" text="The banner image of the home page.">
            <ThumbnailField
              form={form}
              uploading={thumbnailBusy === "upload"}
              resetting={thumbnailBusy === "reset"}
              onUpload={onUpload}
              onReset={onResetThumbnail}
            />
          </SettingsSection>
          {aside}
        </div>
      </div>
      <div className="settings-savebar" data-dirty={isDirty || undefined}>
        <p className="settings-savebar-text" aria-live="polite">
          {isDirty ? "You have unsaved changes." : "All changes saved."}
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
