/**
 * The embed link of the stream as it is saved: the page links people copy from the address bar of
 * YouTube, Twitch and Vimeo become those services' players, a Twitch player gets this site's host as its
 * `parent`, and a link that is no player at all is refused with what to paste instead. Shared by the
 * server, which converts on save, and the admin page, which shows what will be saved.
 */
export type EmbedLink = { url: string; converted: boolean } | { problem: string };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;
const YOUTUBE_CHANNEL = /^UC[A-Za-z0-9_-]{10,40}$/;
const TWITCH_CHANNEL = /^[A-Za-z0-9_]{1,25}$/;
const TWITCH_NOT_CHANNELS = new Set(["directory", "videos", "settings", "search", "downloads", "p", "subscriptions", "inventory", "wallet", "drops", "login", "signup"]);
const NUMERIC = /^\d+$/;
const VIMEO_HASH = /^[0-9a-f]{6,20}$/;

export const EMBED_PROBLEMS = {
  youtube: "That YouTube link is not a video. Paste the live video's link (https://www.youtube.com/watch?v=…) or its embed address (https://www.youtube.com/embed/…).",
  twitch: "That Twitch link is not a channel or a video. Paste the channel's link (https://www.twitch.tv/<channel>) or its player (https://player.twitch.tv/?channel=<channel>).",
  vimeo: "That Vimeo link is not a video or an event. Paste the video's link (https://vimeo.com/<number>) or its player (https://player.vimeo.com/video/<number>).",
  homePage: (origin: string) =>
    `That is a site's home page, not a player. Paste the player's embed address: for an Owncast server that is ${origin}/embed/video; other services show it under Share → Embed.`,
} as const;

const converted = (url: string): EmbedLink => ({ url, converted: true });
/** The link is a player already: saved as typed. */
const KEEP = { keep: true } as const;
type Verdict = EmbedLink | typeof KEEP;

/** A Twitch player address with `parentHost` among its parents (Twitch plays only inside those sites). */
function withTwitchParent(url: URL, parentHost: string): string {
  if (!url.searchParams.getAll("parent").includes(parentHost)) url.searchParams.append("parent", parentHost);
  return url.href;
}

function youtube(url: URL, host: string, segments: string[]): Verdict {
  const [first, second, third] = segments;
  if (host === "youtube-nocookie.com") return first === "embed" && second ? KEEP : { problem: EMBED_PROBLEMS.youtube };
  if (first === "embed" && second) return KEEP;
  let id: string | null | undefined = null;
  if (host === "youtu.be") id = first;
  else if (first === "watch") id = url.searchParams.get("v");
  else if (first === "live" || first === "shorts") id = second;
  if (id && YOUTUBE_ID.test(id)) return converted(`https://www.youtube.com/embed/${id}`);
  // A channel's page (or its /live page) plays whatever the channel streams now.
  if (first === "channel" && second && YOUTUBE_CHANNEL.test(second) && (third === undefined || third === "live")) {
    return converted(`https://www.youtube.com/embed/live_stream?channel=${second}`);
  }
  return { problem: EMBED_PROBLEMS.youtube };
}

function twitch(url: URL, host: string, segments: string[], parentHost: string): Verdict {
  const [first, second] = segments;
  if (host === "player.twitch.tv") {
    if (!["channel", "video", "collection"].some((name) => url.searchParams.get(name))) return { problem: EMBED_PROBLEMS.twitch };
    return url.searchParams.getAll("parent").includes(parentHost) ? KEEP : converted(withTwitchParent(url, parentHost));
  }
  if (host === "clips.twitch.tv") {
    if (first === "embed" && url.searchParams.get("clip")) return url.searchParams.getAll("parent").includes(parentHost) ? KEEP : converted(withTwitchParent(url, parentHost));
    return first && !second
      ? converted(`https://clips.twitch.tv/embed?clip=${encodeURIComponent(first)}&parent=${encodeURIComponent(parentHost)}`)
      : { problem: EMBED_PROBLEMS.twitch };
  }
  const parent = encodeURIComponent(parentHost);
  if (first === "videos" && second && NUMERIC.test(second)) return converted(`https://player.twitch.tv/?video=v${second}&parent=${parent}`);
  if (first && TWITCH_CHANNEL.test(first) && !TWITCH_NOT_CHANNELS.has(first.toLowerCase())) {
    return converted(`https://player.twitch.tv/?channel=${first.toLowerCase()}&parent=${parent}`);
  }
  return { problem: EMBED_PROBLEMS.twitch };
}

function vimeo(url: URL, host: string, segments: string[]): Verdict {
  const [first, second, third] = segments;
  if (host === "player.vimeo.com") return first === "video" && second && NUMERIC.test(second) ? KEEP : { problem: EMBED_PROBLEMS.vimeo };
  if (first === "event" && second && NUMERIC.test(second)) {
    return third === "embed" ? KEEP : converted(`https://vimeo.com/event/${second}/embed`);
  }
  const at = segments.findIndex((s) => NUMERIC.test(s));
  if (at < 0) return { problem: EMBED_PROBLEMS.vimeo };
  // An unlisted video's link carries its privacy hash after the number.
  const hash = segments[at + 1];
  return converted(`https://player.vimeo.com/video/${segments[at]}${hash && VIMEO_HASH.test(hash) ? `?h=${hash}` : ""}`);
}

/**
 * The address to save for `input` (an http(s) URL, already checked as one; "" stays ""), or why it is
 * no player. `parentHost` is this site's host name, which Twitch's player requires.
 */
export function toEmbedLink(input: string, parentHost: string): EmbedLink {
  const text = input.trim();
  if (text === "") return { url: "", converted: false };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { url: text, converted: false };
  }
  const verdict = judge(url, parentHost);
  return "keep" in verdict ? { url: text, converted: false } : verdict;
}

function judge(url: URL, parentHost: string): Verdict {
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, "");
  const segments = url.pathname.split("/").filter(Boolean);
  if (host === "youtube.com" || host === "music.youtube.com" || host === "youtu.be" || host === "youtube-nocookie.com") return youtube(url, host, segments);
  if (host === "twitch.tv" || host === "player.twitch.tv" || host === "clips.twitch.tv") return twitch(url, host, segments, parentHost);
  if (host === "vimeo.com" || host === "player.vimeo.com") return vimeo(url, host, segments);
  if (segments.length === 0 && !url.search) return { problem: EMBED_PROBLEMS.homePage(url.origin) };
  return KEEP;
}
