import { describe, expect, test } from "bun:test";
import { compileChatFilter, containsLink, foldWords } from "./filters.ts";

const block = compileChatFilter({ blockedTerms: ["hate", "Kill yourself", "crème"], filterAction: "block", blockLinks: false });
const mask = compileChatFilter({ blockedTerms: ["hate", "kill yourself"], filterAction: "mask", blockLinks: false });

describe("blocked terms", () => {
  const evasions = [
    "hate",
    "HATE",
    "Hate!",
    "h4te",
    "H4T3",
    "hâte",
    "ḧätë",
    "ｈａｔｅ",
    "Ｈ４ＴＥ",
    "h@te",
    "k!ll yourself",
    "һаtе",
    "i h4te you",
    "...hate...",
    "kill yourself",
    "K1LL   yourse1f",
    "creme",
    "CRÈME",
  ];
  for (const text of evasions) {
    test(`'${text}' is caught`, () => expect(block.screen(text, false).kind).toBe("blocked"));
  }
  const innocent = ["whatever", "hateful", "chat", "that", "h a t e", "skill", "kill", "yourself", "hat", "I love this"];
  for (const text of innocent) {
    test(`'${text}' passes untouched`, () => expect(block.screen(text, false)).toEqual({ kind: "ok", text, masked: false }));
  }
});

describe("mask", () => {
  test("replaces only the matched words with asterisks, keeping spaces and punctuation", () => {
    expect(mask.screen("I h4te this, k1ll yourself!", false)).toEqual({ kind: "ok", text: "I **** this, **** ********!", masked: true });
    expect(mask.screen("ｈａｔｅ hate", false)).toEqual({ kind: "ok", text: "**** ****", masked: true });
  });
});

describe("links", () => {
  const links = ["see example.com", "https://evil.example/x", "www.scam", "discord.gg/abc", "HTTP://X.CO", "ｅｘａｍｐｌｅ．ｃｏｍ", "free.stuff.xyz/now"];
  const notLinks = ["e.g. this", "3.5 stars", "hello.world", "wait...what", "I am fine."];
  const filter = compileChatFilter({ blockedTerms: [], filterAction: "block", blockLinks: true });
  for (const text of links) test(`'${text}' is a link`, () => expect(filter.screen(text, false).kind).toBe("link"));
  for (const text of notLinks) test(`'${text}' is not`, () => expect(containsLink(text)).toBe(false));
  test("moderators may post links", () => expect(filter.screen("see example.com", true).kind).toBe("ok"));
});

test("no rules: the filter is inactive and returns the text as is", () => {
  const none = compileChatFilter({ blockedTerms: [], filterAction: "block", blockLinks: false });
  expect(none.active).toBe(false);
  expect(none.screen("anything example.com h4te", false)).toEqual({ kind: "ok", text: "anything example.com h4te", masked: false });
});

test("words keep their place in the original text", () => {
  expect(foldWords("Ｈi, 𝒽4te!")).toEqual([
    { folded: "hi", start: 0, end: 2 },
    { folded: "hate", start: 4, end: 9 },
  ]);
});
