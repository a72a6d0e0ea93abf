import { describe, expect, test } from "bun:test";
import { EMBED_PROBLEMS, toEmbedLink } from "./embed-link.ts";

const HOST = "stream.example.org";
const link = (input: string) => toEmbedLink(input, HOST);
const player = (url: string) => ({ url, converted: true });
const kept = (url: string) => ({ url, converted: false });

describe("toEmbedLink: YouTube", () => {
  test("watch?v=, youtu.be, /live/ and /shorts/ links become the embed player", () => {
    const embed = player("https://www.youtube.com/embed/dQw4w9WgXcQ");
    for (const input of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/live/dQw4w9WgXcQ?feature=share",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
      "  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ",
    ]) {
      expect(link(input)).toEqual(embed);
    }
  });

  test("a channel's page plays its live stream", () => {
    expect(link("https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv")).toEqual(player("https://www.youtube.com/embed/live_stream?channel=UCabcdefghijklmnopqrstuv"));
  });

  test("an embed address is kept as typed; a link without a video is refused", () => {
    expect(link("https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1")).toEqual(kept("https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1"));
    expect(link("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")).toEqual(kept("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"));
    for (const input of ["https://www.youtube.com/", "https://www.youtube.com/@somechannel", "https://www.youtube.com/watch?v=<script>", "https://youtu.be/"]) {
      expect(link(input)).toEqual({ problem: EMBED_PROBLEMS.youtube });
    }
  });
});

describe("toEmbedLink: Twitch", () => {
  test("a channel link becomes the player with this site as parent", () => {
    expect(link("https://www.twitch.tv/SomeStreamer")).toEqual(player("https://player.twitch.tv/?channel=somestreamer&parent=stream.example.org"));
    expect(link("https://twitch.tv/night_owl/")).toEqual(player("https://player.twitch.tv/?channel=night_owl&parent=stream.example.org"));
  });

  test("a past broadcast becomes the video player; a clip its embed", () => {
    expect(link("https://www.twitch.tv/videos/123456789")).toEqual(player("https://player.twitch.tv/?video=v123456789&parent=stream.example.org"));
    expect(link("https://clips.twitch.tv/FunnyClipSlug")).toEqual(player("https://clips.twitch.tv/embed?clip=FunnyClipSlug&parent=stream.example.org"));
  });

  test("a player gets this site added as a parent, once", () => {
    expect(link("https://player.twitch.tv/?channel=x")).toEqual(player("https://player.twitch.tv/?channel=x&parent=stream.example.org"));
    expect(link("https://player.twitch.tv/?channel=x&parent=other.example")).toEqual(player("https://player.twitch.tv/?channel=x&parent=other.example&parent=stream.example.org"));
    expect(link("https://player.twitch.tv/?channel=x&parent=stream.example.org")).toEqual(kept("https://player.twitch.tv/?channel=x&parent=stream.example.org"));
  });

  test("Twitch's own pages and a player naming nothing are refused", () => {
    for (const input of ["https://www.twitch.tv/directory", "https://www.twitch.tv/", "https://player.twitch.tv/"]) expect(link(input)).toEqual({ problem: EMBED_PROBLEMS.twitch });
  });
});

describe("toEmbedLink: Vimeo", () => {
  test("a video link becomes player.vimeo.com/video/ID, an unlisted one keeps its hash", () => {
    expect(link("https://vimeo.com/76979871")).toEqual(player("https://player.vimeo.com/video/76979871"));
    expect(link("https://vimeo.com/channels/staffpicks/76979871")).toEqual(player("https://player.vimeo.com/video/76979871"));
    expect(link("https://vimeo.com/76979871/a1b2c3d4e5")).toEqual(player("https://player.vimeo.com/video/76979871?h=a1b2c3d4e5"));
  });

  test("a live event link becomes its embed", () => {
    expect(link("https://vimeo.com/event/4242")).toEqual(player("https://vimeo.com/event/4242/embed"));
    expect(link("https://vimeo.com/event/4242/embed")).toEqual(kept("https://vimeo.com/event/4242/embed"));
  });

  test("the player is kept; a page without a video is refused", () => {
    expect(link("https://player.vimeo.com/video/76979871")).toEqual(kept("https://player.vimeo.com/video/76979871"));
    expect(link("https://vimeo.com/")).toEqual({ problem: EMBED_PROBLEMS.vimeo });
    expect(link("https://player.vimeo.com/")).toEqual({ problem: EMBED_PROBLEMS.vimeo });
  });
});

describe("toEmbedLink: other services", () => {
  test("a site's home page is refused, naming its Owncast player", () => {
    expect(link("https://watch.owncast.online")).toEqual({ problem: EMBED_PROBLEMS.homePage("https://watch.owncast.online") });
    expect(link("https://live.example.com:8080/")).toEqual({ problem: EMBED_PROBLEMS.homePage("https://live.example.com:8080") });
  });

  test("an address with a path is kept as typed; empty stays empty", () => {
    expect(link("https://watch.owncast.online/embed/video")).toEqual(kept("https://watch.owncast.online/embed/video"));
    expect(link("https://example.com/player?id=3")).toEqual(kept("https://example.com/player?id=3"));
    expect(link("")).toEqual(kept(""));
    expect(link("   ")).toEqual(kept(""));
  });
});
