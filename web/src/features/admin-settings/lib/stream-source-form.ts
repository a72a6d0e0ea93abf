import { streamSourceBody, type StreamKind, type StreamSourceBody, type StreamSourceView } from "@contracts/stream";

export interface SourceField {
  name: string;
  label: string;
  hint: string;
  /** A key pasted as several lines, or a token kept out of sight; both write-only. */
  secret?: "key" | "token";
  placeholder?: string;
}

export interface KindOption {
  kind: StreamKind;
  label: string;
  summary: string;
  protects: boolean;
  fields: SourceField[];
}

/** The kinds in the order the card offers them, with each one's fields and where to find them. */
export const KIND_OPTIONS: KindOption[] = [
  {
    kind: "ingest",
    label: "Built-in (OBS)",
    summary: "OBS streams straight to this server",
    protects: true,
    fields: [],
  },
  {
    kind: "embed",
    label: "Embed link",
    summary: "YouTube, Twitch, Vimeo or an Owncast page",
    protects: false,
    fields: [
      {
        name: "embedUrl",
        label: "Embed URL",
        hint: "A YouTube video or channel, a Twitch channel or a Vimeo video as you copy it from the address bar, or any player's embed address. Page links are turned into their player when saved; Twitch gets parent=<this site> added.",
        placeholder: "https://www.youtube.com/watch?v=…",
      },
    ],
  },
  {
    kind: "mux",
    label: "Mux",
    summary: "Signed playback, per viewer",
    protects: true,
    fields: [
      { name: "playbackId", label: "Playback ID", hint: "A signed playback ID of the live stream (Video → Live Streams → Playback IDs, policy “signed”)." },
      { name: "signingKeyId", label: "Signing key ID", hint: "Settings → Signing Keys → Generate new key: the key ID." },
      { name: "signingKey", label: "Signing key", hint: "The private key shown once with it: paste it as given (base64 or PEM).", secret: "key" },
    ],
  },
  {
    kind: "cloudflare",
    label: "Cloudflare Stream",
    summary: "Signed URL tokens",
    protects: true,
    fields: [
      { name: "customerCode", label: "Customer code", hint: "From your Stream address customer-<code>.cloudflarestream.com." },
      { name: "videoUid", label: "Video or live input UID", hint: "Stream → Live inputs (or Videos): the 32-character UID, with “Require signed URLs” on." },
      { name: "keyId", label: "Key ID", hint: "The id answered by POST /accounts/{account}/stream/keys." },
      { name: "privateKey", label: "Private key", hint: "The pem or jwk of that answer (base64, as given).", secret: "key" },
    ],
  },
  {
    kind: "bunny",
    label: "Bunny Stream",
    summary: "Embed token authentication",
    protects: true,
    fields: [
      { name: "libraryId", label: "Library ID", hint: "Stream → your library → API: the Video Library ID." },
      { name: "videoId", label: "Video ID", hint: "The GUID of the video or live recording." },
      { name: "tokenKey", label: "Token authentication key", hint: "Library → Security: turn on Embed view token authentication and copy the key.", secret: "token" },
    ],
  },
  {
    kind: "hls",
    label: "HLS relay",
    summary: "Owncast, MediaMTX, nginx-rtmp",
    protects: true,
    fields: [
      {
        name: "originUrl",
        label: "Origin URL",
        hint: "A playlist only this server can reach, e.g. http://127.0.0.1:8080/hls/stream.m3u8 (Owncast). This server relays it to viewers with a pass.",
        placeholder: "http://127.0.0.1:8080/hls/stream.m3u8",
      },
    ],
  },
];

export const kindOption = (kind: StreamKind) => KIND_OPTIONS.find((o) => o.kind === kind)!;

/** The form's text values from the saved source (secrets stay empty: left empty, the saved one is kept). */
export function toFieldValues(view: StreamSourceView): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(view)) if (typeof value === "string" && name !== "kind") values[name] = value;
  return values;
}

/** Whether the saved source of this kind holds this secret. */
export function secretIsSet(view: StreamSourceView | undefined, kind: StreamKind, name: string): boolean {
  return view?.kind === kind && (view as unknown as Record<string, unknown>)[`${name}Set`] === true;
}

/** The body to save, or the first message per field. */
export function toStreamSourceBody(kind: StreamKind, values: Record<string, string>, watermark: boolean): { body: StreamSourceBody } | { errors: Record<string, string> } {
  const fields = Object.fromEntries(kindOption(kind).fields.map((f) => [f.name, values[f.name] ?? ""]));
  const parsed = streamSourceBody.safeParse({ kind, ...fields, watermark });
  if (parsed.success) return { body: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { errors };
}
