import type { UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { LinkIcon } from "@/components/ui/icons";
import { suggestEmbedUrl } from "../lib/embed-url";
import type { SettingsFormInput, SettingsFormValues } from "../lib/settings-form";

/** The player URL, with a one-click fix when a page link (YouTube, Twitch, Vimeo, Owncast) is pasted. */
export function EmbedUrlField({ form }: { form: UseFormReturn<SettingsFormInput, unknown, SettingsFormValues> }) {
  const value = form.watch("embedUrl");
  const suggestion = suggestEmbedUrl(value, window.location.hostname);
  return (
    <div className="embed-field">
      <FormField
        label="Embed URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://www.youtube.com/embed/…"
        hint="The address of the stream player. Paste a YouTube, Twitch, Vimeo or Owncast link and it will be converted. Leave empty until the stream is ready."
        error={form.formState.errors.embedUrl?.message}
        {...form.register("embedUrl")}
      />
      {suggestion ? (
        <div className="embed-suggestion" role="status">
          <LinkIcon />
          <div className="embed-suggestion-text">
            <p>
              That is a {suggestion.provider} page link. The player needs its embed URL:
            </p>
            <p className="mono embed-suggestion-url">{suggestion.url}</p>
          </div>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => form.setValue("embedUrl", suggestion.url, { shouldDirty: true, shouldValidate: true })}
          >
            Use embed URL
          </button>
        </div>
      ) : null}
    </div>
  );
}
