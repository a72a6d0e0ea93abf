/**
 * Turns the page link of a stream (what people copy from the address bar) into the player URL that can
 * be embedded: YouTube, Twitch, Vimeo and Owncast. Null when the link is already an embed URL or unknown.
 */
export type EmbedProvider = "YouTube" | "Twitch" | "Vimeo" | "Owncast";

export interface EmbedSuggestion {
  provider: EmbedProvider;
  url: string;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;
const TWITCH_CHANNEL = /^[A-Za-z0-9_]{1,25}$/;
const TWITCH_NOT_CHANNELS = new Set(["directory", "videos", "settings", "search", "downloads", "p", "subscriptions", "inventory", "wallet", "drops"]);
const NUMERIC = /^\d+$/;

/** @param parentHost the site's own host name, which Twitch's player requires as `parent`. */
export function suggestEmbedUrl(input: string, parentHost: string): EmbedSuggestion | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, "");
  const segments = url.pathname.split("/").filter(Boolean);
  const [first, second] = segments;

  if (host === "youtube.com" || host === "youtu.be" || host === "music.youtube.com") {
    let id: string | null | undefined = null;
    if (host === "youtu.be") id = first;
    else if (first === "watch") id = url.searchParams.get("v");
    else if (first === "live" || first === "shorts") id = second;
    return id && YOUTUBE_ID.test(id) ? { provider: "YouTube", url: `https://www.youtube.com/embed/${id}` } : null;
  }

  if (host === "twitch.tv") {
    const parent = encodeURIComponent(parentHost);
    if (first === "videos" && second && NUMERIC.test(second)) {
      return { provider: "Twitch", url: `https://player.twitch.tv/?video=v${second}&parent=${parent}` };
    }
    if (first && TWITCH_CHANNEL.test(first) && !TWITCH_NOT_CHANNELS.has(first.toLowerCase())) {
      return { provider: "Twitch", url: `https://player.twitch.tv/?channel=${first.toLowerCase()}&parent=${parent}` };
    }
    return null;
  }

  if (host === "vimeo.com") {
    if (first === "event" && second && NUMERIC.test(second)) return { provider: "Vimeo", url: `https://vimeo.com/event/${second}/embed` };
    const id = segments.find((s) => NUMERIC.test(s));
    return id ? { provider: "Vimeo", url: `https://player.vimeo.com/video/${id}` } : null;
  }

  if (host.endsWith("youtube.com") || host.endsWith("twitch.tv") || host.endsWith("vimeo.com") || host.endsWith("youtube-nocookie.com")) return null;

  // An Owncast server is linked by its bare address; its player lives at /embed/video.
  if (segments.length === 0 && !url.search && !url.hash) return { provider: "Owncast", url: `${url.origin}/embed/video` };
  return null;
}
