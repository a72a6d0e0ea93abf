import { useRef, useState, type ChangeEvent } from "react";
import { TEXT_LIMITS } from "@contracts/text-limits";
import type { UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { ImageIcon, ResetIcon, UploadIcon } from "@/components/ui/icons";
import { DEFAULT_THUMBNAIL_URL } from "@/config/event";
import type { SettingsFormInput, SettingsFormValues } from "../lib/settings-form";

interface ThumbnailFieldProps {
  form: UseFormReturn<SettingsFormInput, unknown, SettingsFormValues>;
  uploading: boolean;
  resetting: boolean;
  onUpload: (file: File) => void;
  onReset: () => void;
}

/** The thumbnail path with a preview, an upload button (images only) and a reset to the default image. */
export function ThumbnailField({ form, uploading, resetting, onUpload, onReset }: ThumbnailFieldProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const path = form.watch("thumbnailUrl").trim();
  const [broken, setBroken] = useState<string | null>(null);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) onUpload(file);
  };

  return (
    <div className="settings-thumbnail-field">
      <figure className="settings-thumbnail-preview">
        {path && broken !== path ? (
          <img src={path} alt="Thumbnail preview" width={1280} height={720} onError={() => setBroken(path)} />
        ) : (
          <div className="settings-thumbnail-missing">
            <ImageIcon />
            <span>{path ? "This image could not be loaded" : "No thumbnail"}</span>
          </div>
        )}
        <figcaption className="settings-thumbnail-size">1280 × 720</figcaption>
      </figure>
      <FormField
        label="Thumbnail path"
        autoComplete="off"
        maxLength={TEXT_LIMITS.address}
        spellCheck={false}
        hint="Shown as the banner on the home page. Recommended size 1280x720."
        error={form.formState.errors.thumbnailUrl?.message}
        {...form.register("thumbnailUrl")}
      />
      <div className="settings-thumbnail-actions">
        <input ref={fileInput} type="file" accept="image/*" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={onFile} data-testid="thumbnail-file" />
        <button type="button" className="btn btn-outline" onClick={() => fileInput.current?.click()} disabled={uploading}>
          <UploadIcon />
          {uploading ? "Uploading..." : "Upload Image"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onReset} disabled={resetting || path === DEFAULT_THUMBNAIL_URL}>
          <ResetIcon />
          {resetting ? "Resetting..." : "Reset Thumbnail"}
        </button>
      </div>
    </div>
  );
}
