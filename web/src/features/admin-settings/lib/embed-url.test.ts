import { describe, expect, test } from "bun:test";
import { suggestEmbedUrl, type EmbedSuggestion } from "./embed-url";

const HOST = "stream.example.org";
const suggest = (input: string) => suggestEmbedUrl(input, HOST);

describe("suggestEmbedUrl: YouTube", () => {
  test("watch?v=, youtu.be and /live/ links become the embed player", () => {
    const embed: EmbedSuggestion = { provider: "YouTube", url: "https://www.youtube.com/embed/dQw4w9WgXcQ" };
    expect(suggest("https://www.youtube.com/watch?v=dQw4w9WgXcQ")).toEqual(embed);
    expect(suggest("https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s")).toEqual(embed);
    expect(suggest("https://m.youtube.com/watch?v=dQw4w9WgXcQ")).toEqual(embed);
    expect(suggest("https://youtu.be/dQw4w9WgXcQ")).toEqual(embed);
    expect(suggest("https://youtu.be/dQw4w9WgXcQ?si=abc")).toEqual(embed);
    expect(suggest("https://www.youtube.com/live/dQw4w9WgXcQ?feature=share")).toEqual(embed);
    expect(suggest("  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ")).toEqual(embed);
  });

  test("an embed URL or a link without a video is left alone", () => {
    expect(suggest("https://www.youtube.com/embed/dQw4w9WgXcQ")).toBeNull();
    expect(suggest("https://www.youtube.com/")).toBeNull();
    expect(suggest("https://www.youtube.com/@somechannel")).toBeNull();
    expect(suggest("https://www.youtube.com/watch?v=<script>")).toBeNull();
  });
});

describe("suggestEmbedUrl: Twitch", () => {
  test("a channel link becomes the player with this site as parent", () => {
    expect(suggest("https://www.twitch.tv/SomeStreamer")).toEqual({
      provider: "Twitch",
      url: "https://player.twitch.tv/?channel=somestreamer&parent=stream.example.org",
    });
    expect(suggest("https://twitch.tv/night_owl/")).toEqual({ provider: "Twitch", url: "https://player.twitch.tv/?channel=night_owl&parent=stream.example.org" });
  });

  test("a past broadcast becomes the video player", () => {
    expect(suggest("https://www.twitch.tv/videos/123456789")).toEqual({ provider: "Twitch", url: "https://player.twitch.tv/?video=v123456789&parent=stream.example.org" });
  });

  test("the player itself and Twitch's own pages are left alone", () => {
    expect(suggest("https://player.twitch.tv/?channel=x&parent=stream.example.org")).toBeNull();
    expect(suggest("https://www.twitch.tv/directory")).toBeNull();
    expect(suggest("https://www.twitch.tv/")).toBeNull();
  });
});

describe("suggestEmbedUrl: Vimeo", () => {
  test("a video link becomes player.vimeo.com/video/ID", () => {
    expect(suggest("https://vimeo.com/76979871")).toEqual({ provider: "Vimeo", url: "https://player.vimeo.com/video/76979871" });
    expect(suggest("https://vimeo.com/channels/staffpicks/76979871")).toEqual({ provider: "Vimeo", url: "https://player.vimeo.com/video/76979871" });
  });

  test("a live event link becomes its embed", () => {
    expect(suggest("https://vimeo.com/event/4242")).toEqual({ provider: "Vimeo", url: "https://vimeo.com/event/4242/embed" });
  });

  test("the player is left alone", () => {
    expect(suggest("https://player.vimeo.com/video/76979871")).toBeNull();
    expect(suggest("https://vimeo.com/")).toBeNull();
  });
});

describe("suggestEmbedUrl: Owncast and others", () => {
  test("a bare server address becomes its /embed/video player", () => {
    expect(suggest("https://watch.owncast.online")).toEqual({ provider: "Owncast", url: "https://watch.owncast.online/embed/video" });
    expect(suggest("https://live.example.com:8080/")).toEqual({ provider: "Owncast", url: "https://live.example.com:8080/embed/video" });
  });

  test("an address with a path, or not a URL at all, gets no suggestion", () => {
    expect(suggest("https://watch.owncast.online/embed/video")).toBeNull();
    expect(suggest("https://example.com/player?id=3")).toBeNull();
    expect(suggest("not a url")).toBeNull();
    expect(suggest("")).toBeNull();
    expect(suggest("javascript:alert(1)")).toBeNull();
    expect(suggest("ftp://files.example.com")).toBeNull();
  });
});
