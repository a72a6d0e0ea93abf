import { useId, useState } from "react";
import type { IngestPublisher, IngestRefusal, IngestView } from "@contracts/stream";
import { formatEventTime } from "@/lib/dates";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { LoadFailed } from "@/components/admin/load-failed";
import { CopyIcon, TvIcon } from "@/components/ui/icons";
import { EyeIcon } from "@/components/ui/stream-icons";
import { AlertIcon, RefreshIcon } from "@/components/ui/site-icons";
import { useNow } from "@/hooks/use-now";
import { toast, toastError } from "@/hooks/use-toast";
import { codecName, formatAudio, formatBitrate, formatFps, formatKeyframeInterval, liveFor } from "@/lib/ingest-figures";
import { useIngest, useRevealStreamKey, useRotateStreamKey } from "../api/ingest";
import { IngestPreview } from "./ingest-preview";

/** What the key field holds until the key is revealed: dots of a key's length, not the key. */
const HIDDEN_KEY = "•".repeat(40);

/**
 * The built-in ingest in the Stream source card: what OBS is set up with (server and key, copied in one
 * click, the key fetched only when revealed or copied and rotated after a confirmation), whether it is
 * live with what it sends, what to change, and a small muted preview. Asked again every few seconds while
 * shown (the key is not).
 */
export function IngestPanel() {
  const ingest = useIngest(true);
  if (ingest.data) return <IngestDetails view={ingest.data} />;
  if (ingest.isError) {
    return <LoadFailed icon={<TvIcon />} title="The server address and stream key could not be loaded" onRetry={() => void ingest.refetch()} />;
  }
  return (
    <p className="field-hint" role="status">
      Loading the server address and stream key…
    </p>
  );
}

function IngestDetails({ view }: { view: IngestView }) {
  return (
    <div className="settings-ingest" data-testid="ingest-panel">
      <LiveState view={view} />
      {view.warnings.length > 0 ? (
        <ul className="settings-ingest-warnings" aria-label="What to change in OBS">
          {view.warnings.map((warning) => (
            <li key={warning} className="alert alert-warning">
              <AlertIcon />
              <p>{warning}</p>
            </li>
          ))}
        </ul>
      ) : null}
      {view.refusals.length > 0 ? <Refusals refusals={view.refusals} /> : null}
      <div className="settings-ingest-layout">
        <div className="settings-ingest-connection">
          <ObsSettings view={view} />
          <p className="settings-ingest-steps">
            In OBS: <strong>Settings → Stream</strong>, Service <strong>Custom…</strong>, then paste these two.
          </p>
          <CopyField label="Server" value={view.rtmpUrl} what="The server address" />
          {view.rtmpsUrl ? <CopyField label="Server (RTMPS, encrypted)" value={view.rtmpsUrl} what="The RTMPS server address" /> : null}
          <StreamKeyField live={view.live} />
        </div>
        <IngestPreview live={view.live} />
      </div>
    </div>
  );
}

/** Publishes refused lately: when, from which address and why, one line per burst. */
function Refusals({ refusals }: { refusals: IngestRefusal[] }) {
  return (
    <section className="settings-ingest-refusals" aria-label="Refused publishes">
      <p className="settings-ingest-refusals-title">Refused publishes</p>
      <ul>
        {refusals.map((r) => (
          <li key={`${r.address}/${r.reason}/${r.at}`}>
            <time dateTime={r.at}>{formatEventTime(r.at)}</time>
            <span>
              {r.count > 1 ? `${r.count} tries until ${formatEventTime(r.lastAt)}` : "Once"} from <strong className="mono">{r.address}</strong>: {r.reason}.
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Whether a URL's host is an IP address (a certificate OBS accepts names a host name, never a bare address). */
function hostIsAddress(url: string): boolean {
  try {
    const host = new URL(url.replace(/^rtmps?:/, "https:")).hostname;
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
  } catch {
    return false;
  }
}

/**
 * OBS's settings for this stream, up front before anything connects (folded away once OBS is live): the
 * service and server, RTMP or RTMPS, keyframes, a bitrate phones keep up with, the encoder and the audio.
 */
function ObsSettings({ view }: { view: IngestView }) {
  const rtmpsOnAddress = view.rtmpsUrl !== null && hostIsAddress(view.rtmpsUrl);
  return (
    <details className="settings-ingest-obs" open={!view.live}>
      <summary>OBS settings for this stream</summary>
      <dl className="settings-ingest-obs-list">
        <div>
          <dt>Service</dt>
          <dd>Custom… (Settings → Stream)</dd>
        </div>
        <div>
          <dt>Server</dt>
          <dd>
            {view.rtmpsUrl
              ? rtmpsOnAddress
                ? "RTMP. OBS refuses RTMPS to a bare IP address (“Cert verify failed … CN does not match”): give the server a host name its certificate names to use RTMPS."
                : "RTMPS (encrypted) where your network allows it, else RTMP. OBS checks that the certificate names this host."
              : "RTMP (the address below). RTMPS needs a certificate for a host name (--tls-cert)."}
          </dd>
        </div>
        <div>
          <dt>Keyframe interval</dt>
          <dd>1 or 2 s (Settings → Output, Output Mode: Advanced)</dd>
        </div>
        <div>
          <dt>Bitrate</dt>
          <dd>2,500–4,500 kbps, CBR: what phones on mobile data keep up with at 720p or 1080p</dd>
        </div>
        <div>
          <dt>Encoder</dt>
          <dd>x264 (CPU, preset veryfast), or your GPU’s H.264 encoder (NVENC, Quick Sync, AMF) to spare the CPU</dd>
        </div>
        <div>
          <dt>Audio</dt>
          <dd>AAC, 48 kHz (Settings → Audio)</dd>
        </div>
      </dl>
    </details>
  );
}

/** LIVE with how long and what OBS sends, or waiting for it. */
function LiveState({ view }: { view: IngestView }) {
  const now = useNow(30_000);
  const publisher = view.live ? view.publisher : null;
  return (
    <section className="settings-ingest-state" data-live={view.live || undefined} aria-label="Publisher" aria-live="polite">
      <div className="settings-ingest-state-head">
        {view.live ? (
          <span className="settings-ingest-live-badge">
            <span className="settings-ingest-live-dot" aria-hidden="true" />
            Live
          </span>
        ) : (
          <span className="settings-ingest-offline-badge">Offline</span>
        )}
        <p className="settings-ingest-state-text">
          {publisher
            ? `OBS has been streaming for ${liveFor(publisher.since, now)}.`
            : view.live
              ? "OBS is streaming."
              : "Waiting for OBS. Viewers see 'Stream Offline' until you press Start Streaming."}
        </p>
      </div>
      {publisher ? <Figures publisher={publisher} /> : null}
    </section>
  );
}

/** For this long after a publish begins, a figure not known yet is being measured (after it, it is unknown). */
const MEASURING_MS = 30_000;

function Figures({ publisher }: { publisher: IngestPublisher }) {
  const { video, audio } = publisher;
  const now = useNow(2000);
  const measuring = now - Date.parse(publisher.since) < MEASURING_MS;
  // A figure the first seconds cannot tell yet says so, rather than a guess.
  const shown = (value: number | null, format: (v: number | null) => string) => (value === null && measuring ? "measuring…" : format(value));
  const rows: [string, string][] = video
    ? [
        ["Video", `${codecName(video.codec)} · ${video.width}×${video.height}`],
        ["Frame rate", shown(video.fps, formatFps)],
        ["Video bitrate", shown(video.bitrateKbps, formatBitrate)],
        ["Keyframes", shown(video.keyframeIntervalS, formatKeyframeInterval)],
      ]
    : [["Video", "None"]];
  rows.push(["Audio", audio ? formatAudio(audio) : "None"]);
  if (audio) rows.push(["Audio bitrate", shown(audio.bitrateKbps, formatBitrate)]);
  return (
    <dl className="settings-ingest-figures">
      {rows.map(([label, value]) => (
        <div key={label} className="settings-ingest-figure">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Copies text, or says to copy it by hand (the clipboard needs HTTPS or localhost). */
async function copy(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: "Copied!", description: `${what} is on your clipboard.` });
    return true;
  } catch {
    toastError(`Could not copy. Select ${what.toLowerCase()} and copy it by hand.`);
    return false;
  }
}

function CopyField({ label, value, what }: { label: string; value: string; what: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="settings-ingest-copy-row">
        <input id={id} className="input mono settings-ingest-value" value={value} readOnly spellCheck={false} onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void copy(value, what)} aria-label={`Copy ${label}`}>
          <CopyIcon width={16} height={16} />
          Copy
        </button>
      </div>
    </div>
  );
}

/**
 * The key: not sent with the rest of the card, asked for when revealed or copied (behind a fresh proof,
 * so the panel's "Confirm it's you" dialog may open first), copied without showing it, hidden again on
 * request; rotating it asks first and shows the new one.
 */
function StreamKeyField({ live }: { live: boolean }) {
  const id = useId();
  const [streamKey, setStreamKey] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const reveal = useRevealStreamKey();
  const rotate = useRotateStreamKey();

  /** The key, asked of the server the first time; null when the admin gave up (the error is toasted). */
  const known = async (): Promise<string | null> => {
    if (streamKey !== null) return streamKey;
    try {
      const answer = await reveal.mutateAsync();
      setStreamKey(answer.streamKey);
      return answer.streamKey;
    } catch {
      return null;
    }
  };

  const visible = shown && streamKey !== null;
  const onReveal = async () => {
    if (visible) return setShown(false);
    if ((await known()) !== null) setShown(true);
  };

  const onCopy = async () => {
    const key = await known();
    if (key !== null) await copy(key, "The stream key");
  };

  const onRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        setStreamKey(answer.streamKey);
        setShown(true);
        toast({ title: "Stream Key Rotated", description: "Paste the new key into OBS (Settings → Stream → Stream Key) and start streaming again." });
      },
    });

  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Stream key
      </label>
      <div className="settings-ingest-copy-row">
        <input
          id={id}
          className="input mono settings-ingest-value"
          type={visible ? "text" : "password"}
          value={visible ? streamKey : HIDDEN_KEY}
          readOnly
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          data-testid="stream-key"
        />
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void onReveal()} aria-pressed={visible} aria-controls={id} disabled={reveal.isPending}>
          <EyeIcon width={16} height={16} />
          {visible ? "Hide" : "Reveal"}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void onCopy()} aria-label="Copy Stream key" disabled={reveal.isPending}>
          <CopyIcon width={16} height={16} />
          Copy
        </button>
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        Keep it secret: anyone with the key can stream to your viewers. Revealing or copying it asks you to confirm it&apos;s you when your last proof is over 10 minutes old.
        Rotate it if it got out.
      </p>
      <div className="settings-ingest-key-actions">
        <button type="button" className="btn btn-ghost btn-sm settings-ingest-rotate" onClick={() => setConfirming(true)}>
          <RefreshIcon width={16} height={16} />
          Rotate key
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Rotate the stream key?"
        description={
          <>
            {live ? "OBS is live now: it is cut off at once and viewers see 'Stream Offline'. " : ""}
            The current key stops working. Paste the new key into OBS (Settings → Stream → Stream Key) before you start streaming again.
          </>
        }
        confirmLabel="Rotate key"
        pendingLabel="Rotating..."
        pending={rotate.isPending}
        onConfirm={onRotate}
        icon={<RefreshIcon />}
      />
    </div>
  );
}
