import { useState, type FormEvent } from "react";
import { toEmbedLink } from "@contracts/embed-link";
import type { StreamKind, StreamSourceView } from "@contracts/stream";
import { AdminSection } from "@/components/admin/admin-section";
import { LoadFailed } from "@/components/admin/load-failed";
import { Switch } from "@/components/admin/switch";
import { Alert } from "@/components/ui/alert";
import { LinkIcon, LockIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { ApiError } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { useSaveStreamSource, useStreamSource } from "../api/stream-source";
import { kindOption, toFieldValues, toStreamSourceBody, type KindOption } from "../lib/stream-source-form";
import { IngestPanel } from "./ingest-panel";
import { StreamSourceFields } from "./stream-source-fields";
import { StreamKindPicker } from "./stream-kind-picker";

const TITLE = "Stream source";
const TEXT = "Where the video comes from, and how it is kept for those who paid.";
const SAVES = "Saved with its own button, Save Stream Source";

/** The field a server refusal names, when it names one. */
function refusedField(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  try {
    const body = JSON.parse(error.bodyText) as { field?: unknown };
    return typeof body.field === "string" ? body.field : null;
  } catch {
    return null;
  }
}

const refusalMessage = serverMessageOr("Failed to save the stream source.");

/** Where a refusal is shown: beside a field of this kind it names, in the card for a clash (409), else in the toast. */
function placeRefusal(error: Error, option: KindOption): { field: string; message: string } | { conflict: string } | { toast: string } {
  const field = refusedField(error);
  const message = refusalMessage(error);
  if (field && option.fields.some((f) => f.name === field)) return { field, message };
  if (error instanceof ApiError && error.status === 409) return { conflict: message };
  return { toast: message };
}

/** The stream source card: the kind, its fields (keys write-only) and the viewer watermark; saves on its own. */
export function StreamSourceCard() {
  const source = useStreamSource();
  if (source.data) return <StreamSourceForm saved={source.data} />;
  return (
    <AdminSection icon={<LockIcon />} title={TITLE} text={TEXT} saves={SAVES}>
      {source.isError ? (
        <LoadFailed icon={<LockIcon />} title="The stream source could not be loaded" onRetry={() => void source.refetch()} />
      ) : (
        <p className="field-hint" role="status">
          Loading the stream source…
        </p>
      )}
    </AdminSection>
  );
}

function StreamSourceForm({ saved }: { saved: StreamSourceView }) {
  const [kind, setKind] = useState<StreamKind>(saved.kind);
  const [values, setValues] = useState(() => toFieldValues(saved));
  // Untouched, the switch follows the kind: on for the protected kinds.
  const [watermark, setWatermark] = useState<boolean | null>(saved.watermark);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A refusal of the whole source rather than a field, shown in the card (the ingest's RTMP port taken).
  const [conflict, setConflict] = useState<string | null>(null);
  const option = kindOption(kind);
  const save = useSaveStreamSource((error) => {
    const place = placeRefusal(error, option);
    return "toast" in place ? place.toast : null;
  });
  const watermarkOn = watermark ?? option.protects;

  const onKind = (next: StreamKind) => {
    setKind(next);
    setErrors({});
    setConflict(null);
    if (next !== saved.kind) setWatermark(null);
    else setWatermark(saved.watermark);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = toStreamSourceBody(kind, values, watermarkOn);
    if ("errors" in result) return setErrors(result.errors);
    setErrors({});
    setConflict(null);
    save.mutate(result.body, {
      onSuccess: (view) => {
        setValues(toFieldValues(view));
        const typed = values.embedUrl?.trim() ?? "";
        const player = view.kind === "embed" && view.embedUrl !== typed ? ` Saved as the player ${view.embedUrl}.` : "";
        toast({ title: "Stream Source Saved", description: `Viewers now watch through ${option.label}.${player}` });
      },
      onError: (error) => {
        const place = placeRefusal(error, option);
        if ("field" in place) setErrors({ [place.field]: place.message });
        else if ("conflict" in place) setConflict(place.conflict);
      },
    });
  };

  return (
    <form className="stream-source" onSubmit={onSubmit} noValidate aria-label={TITLE}>
      <AdminSection icon={<LockIcon />} title={TITLE} text={TEXT} saves={SAVES}>
        <StreamKindPicker value={kind} onChange={onKind} />
        {option.protects ? (
          <Alert variant="good" title="Only paying viewers can play it">
            Each viewer gets their own address that expires within hours; a copied link stops working, and banned or refunded viewers are cut off on their next request.
          </Alert>
        ) : (
          <Alert title="Anyone with this link can watch">
            The pass only opens the chat: a viewer can copy the player address and share it or embed it elsewhere. The built-in ingest, Mux, Cloudflare Stream, Bunny Stream and the
            HLS relay give each paying viewer their own short-lived address instead.
          </Alert>
        )}
        <StreamSourceFields option={option} saved={saved} values={values} errors={errors} onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))} />
        {kind === "embed" && !errors.embedUrl ? <EmbedPreview input={values.embedUrl ?? ""} /> : null}
        {kind === "ingest" ? (
          saved.kind === "ingest" ? (
            <IngestPanel />
          ) : (
            <p className="field-hint">Save Stream Source to open the RTMP port: the server address and stream key for OBS then appear here.</p>
          )
        ) : null}
        {conflict ? (
          <Alert variant="error" title="Not saved">
            {conflict}
          </Alert>
        ) : null}
        <Switch
          label="Viewer watermark"
          description="Shows each viewer's chat name and the last 4 characters of their code faintly over the player, drifting slowly, so a recording names its source."
          checked={watermarkOn}
          onCheckedChange={setWatermark}
        />
        <div className="settings-stream-source-actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save Stream Source"}
          </button>
        </div>
      </AdminSection>
    </form>
  );
}

/** What a pasted link will be saved as (its player), or why it is no player, before Save is pressed. */
function EmbedPreview({ input }: { input: string }) {
  // The server names its configured host as Twitch's parent; this page's host is what it will usually be.
  const link = toEmbedLink(input, window.location.hostname);
  if ("problem" in link) {
    return (
      <div className="settings-embed-suggestion" role="status">
        <LinkIcon />
        <p className="settings-embed-suggestion-text">{link.problem}</p>
      </div>
    );
  }
  if (!link.converted) return null;
  return (
    <div className="settings-embed-suggestion" role="status">
      <LinkIcon />
      <div className="settings-embed-suggestion-text">
        <p>That is a page link. It will be saved as its player:</p>
        <p className="mono settings-embed-suggestion-url">{link.url}</p>
      </div>
    </div>
  );
}
