import { describe, expect, test } from "bun:test";
import { playerSource, reloadsFor } from "./use-player-policy";

const PAGE = "https://live.example.com";

describe("a policy violation while a player is shown", () => {
  test("names the player's origin, or the page's own for the relay", () => {
    expect(playerSource("https://player.example.net/embed/1?x=2", PAGE)).toBe("https://player.example.net");
    expect(playerSource("/api/stream/hls/stream.m3u8", PAGE)).toBe(PAGE);
  });

  test("reloads for what a player needs, once per source", () => {
    const url = "https://backup.example.net/embed/2";
    for (const directive of ["frame-src", "child-src", "media-src", "worker-src"]) expect(reloadsFor(directive, url, PAGE, null)).toBe("https://backup.example.net");
    expect(reloadsFor("frame-src", url, PAGE, "https://player.example.net")).toBe("https://backup.example.net");
    expect(reloadsFor("frame-src", url, PAGE, "https://backup.example.net")).toBeNull();
  });

  test("leaves anything else alone: other directives, or no player yet", () => {
    expect(reloadsFor("img-src", "https://backup.example.net/embed/2", PAGE, null)).toBeNull();
    expect(reloadsFor("script-src", "https://backup.example.net/embed/2", PAGE, null)).toBeNull();
    expect(reloadsFor("frame-src", "", PAGE, null)).toBeNull();
  });
});
