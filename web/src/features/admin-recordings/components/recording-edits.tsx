import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { TEXT_LIMITS } from "@contracts/text-limits";
import type { RecordingView } from "@contracts/replay";
import { PencilIcon, ScissorsIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { toast } from "@/hooks/use-toast";
import { formatClock } from "@/lib/admin-recordings";
import { serverErrorMessage } from "@/lib/api-client";
import { useUpdateRecording } from "../api/recordings";

/** A refusal's message, placed beside the field it names (the server's messages start with it). */
export function placeRefusal(message: string): "title" | "trimStart" | "trimEnd" | null {
  if (/^title\b/i.test(message)) return "title";
  if (/^trim start\b/i.test(message)) return "trimStart";
  if (/^trim end\b/i.test(message)) return "trimEnd";
  return null;
}

const refusalOf = (error: Error, fallback: string) => serverErrorMessage(error) ?? fallback;

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="field-error" role="alert">
      <AlertIcon width={14} height={14} />
      {message}
    </p>
  );
}

/** The recording's title, renamed in place: Rename opens the field, Enter or Save saves, Escape or Cancel leaves it. */
export function RecordingTitle({ recording }: { recording: RecordingView }) {
  const update = useUpdateRecording();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(recording.title);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  const close = () => {
    setEditing(false);
    setError(null);
    update.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === recording.title) return close();
    update.mutate(
      { id: recording.id, change: { title } },
      {
        onSuccess: (saved) => {
          setTitle(saved.title);
          close();
          toast({ title: "Recording renamed", description: `It is now “${saved.title}”.` });
        },
        onError: (failure) => setError(refusalOf(failure, "Could not rename the recording.")),
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      setTitle(recording.title);
      close();
    }
  };

  if (!editing) {
    return (
      <div className="recordings-title-row">
        <h3 className="recordings-title">{recording.title}</h3>
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Rename: ${recording.title}`}
          title="Rename"
          onClick={() => {
            setTitle(recording.title);
            setEditing(true);
          }}
        >
          <PencilIcon />
        </button>
      </div>
    );
  }
  return (
    <form className="recordings-rename" onSubmit={submit} aria-label={`Rename ${recording.title}`}>
      <label className="sr-only" htmlFor={inputId}>
        Title
      </label>
      <input
        id={inputId}
        className="input"
        value={title}
        maxLength={TEXT_LIMITS.recordingTitle}
        autoComplete="off"
        // The field opens at the admin's own click: focus follows it there.
        autoFocus
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
      />
      <div className="recordings-rename-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={update.isPending}>
          {update.isPending ? "Saving..." : "Save"}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            setTitle(recording.title);
            close();
          }}
        >
          Cancel
        </button>
      </div>
      {error ? <FieldError id={`${inputId}-error`} message={error} /> : null}
    </form>
  );
}

const asSeconds = (value: number | null) => (value === null ? "" : String(Math.round(value * 10) / 10));

/**
 * The trims: seconds cut from the start and where the replay stops (empty: at the end). The server cuts at
 * segment boundaries and refuses a trim outside the recording or an end before the start, in its own words.
 */
export function TrimForm({ recording }: { recording: RecordingView }) {
  const update = useUpdateRecording();
  const ids = { start: useId(), end: useId() };
  const saved = { start: asSeconds(recording.trimStartS), end: asSeconds(recording.trimEndS) };
  const [start, setStart] = useState(saved.start);
  const [end, setEnd] = useState(saved.end);
  const [shownFor, setShownFor] = useState(`${saved.start}/${saved.end}`);
  const [error, setError] = useState<{ field: "trimStart" | "trimEnd" | null; message: string } | null>(null);
  // Saved elsewhere (another tab, the list read again): the fields follow.
  if (shownFor !== `${saved.start}/${saved.end}`) {
    setShownFor(`${saved.start}/${saved.end}`);
    setStart(saved.start);
    setEnd(saved.end);
  }
  const changed = start !== saved.start || end !== saved.end;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const trimStartS = start.trim() === "" ? 0 : Number(start);
    const trimEndS = end.trim() === "" ? null : Number(end);
    update.mutate(
      { id: recording.id, change: { trimStartS, trimEndS } },
      {
        onSuccess: (result) =>
          toast({
            title: "Trim saved",
            description: `The replay plays ${formatClock(result.playedS)} of this recording.`,
          }),
        onError: (failure) => {
          const message = refusalOf(failure, "Could not save the trim.");
          const field = placeRefusal(message);
          setError({ field: field === "title" ? null : field, message });
        },
      },
    );
  };

  const errorId = `${ids.start}-error`;
  /** The hint, and the refusal when it concerns this field (or both). */
  const described = (field: "trimStart" | "trimEnd", hintId: string) => (error && (error.field === field || error.field === null) ? `${errorId} ${hintId}` : hintId);

  return (
    <form className="recordings-trim" onSubmit={submit} aria-label={`Trim ${recording.title}`} noValidate>
      <div className="field">
        <label className="field-label" htmlFor={ids.start}>
          Trim start (s)
        </label>
        <input
          id={ids.start}
          className="input"
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          value={start}
          placeholder="0"
          onChange={(event) => setStart(event.target.value)}
          aria-invalid={error?.field === "trimStart" ? true : undefined}
          aria-describedby={described("trimStart", `${ids.start}-hint`)}
        />
        <p id={`${ids.start}-hint`} className="field-hint">
          Cut from the beginning.
        </p>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.end}>
          Trim end (s)
        </label>
        <input
          id={ids.end}
          className="input"
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          value={end}
          placeholder={String(Math.round(recording.durationS * 10) / 10)}
          onChange={(event) => setEnd(event.target.value)}
          aria-invalid={error?.field === "trimEnd" ? true : undefined}
          aria-describedby={described("trimEnd", `${ids.end}-hint`)}
        />
        <p id={`${ids.end}-hint`} className="field-hint">
          Empty: to the end.
        </p>
      </div>
      <button type="submit" className="btn btn-outline recordings-trim-save" disabled={update.isPending || !changed}>
        <ScissorsIcon />
        {update.isPending ? "Saving..." : "Save Trim"}
      </button>
      {error ? (
        <div className="recordings-trim-error">
          <FieldError id={errorId} message={error.message} />
        </div>
      ) : null}
    </form>
  );
}
