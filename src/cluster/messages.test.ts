import { describe, expect, test } from "bun:test";
import { clusterMessageSchema, readClusterEnvelope } from "./messages.ts";

const soon = Date.now() + 60_000;

/** Per kind of message: ones an instance sends, and malformed ones that must be ignored, not applied half-way. */
const kinds: { k: string; good: object[]; bad: unknown[] }[] = [
  {
    k: "event",
    good: [{ k: "event", event: { type: "chat", message: {} } }],
    bad: [{ k: "event" }, { k: "event", event: "chat" }, { k: "event", event: null }, { k: "event", event: { message: {} } }, { k: "event", event: { type: 1 } }],
  },
  {
    k: "presence",
    good: [
      { k: "presence", viewers: 3, sockets: 4, fake: null },
      { k: "presence", viewers: 0, sockets: 0, fake: 200 },
    ],
    bad: [
      { k: "presence", viewers: -1, sockets: 0, fake: null },
      { k: "presence", viewers: Number.NaN, sockets: 0, fake: null },
      { k: "presence", viewers: Number.POSITIVE_INFINITY, sockets: 0, fake: null },
      { k: "presence", viewers: "lots", sockets: 1, fake: null },
      { k: "presence", viewers: 1, sockets: 1 },
      { k: "presence", viewers: 1, sockets: 1, fake: -3 },
    ],
  },
  {
    k: "hearts",
    good: [{ k: "hearts", total: 12 }],
    bad: [{ k: "hearts", total: "12" }, { k: "hearts" }, { k: "hearts", total: Number.MAX_VALUE * 2 }],
  },
  {
    k: "people",
    good: [
      { k: "people", who: { username: "Ann", userId: 3, accessCodeId: null }, close: { code: 4001, reason: "Banned", notice: "…" } },
      { k: "people", who: { userId: 7 }, moderator: true },
      { k: "people", who: { accessCodeId: 9 }, send: [{ type: "chat_cooldown", reason: "timeout", seconds: 0 }] },
    ],
    bad: [
      { k: "people" },
      { k: "people", who: null },
      { k: "people", who: { username: "" } },
      { k: "people", who: { username: "x".repeat(201) } },
      { k: "people", who: { userId: "7" } },
      { k: "people", who: { accessCodeId: -1 } },
      { k: "people", who: { username: "Ann" }, send: { type: "x" } },
      { k: "people", who: { username: "Ann" }, close: { code: "4001" } },
      { k: "people", who: null, close: { code: 4001 } },
      { k: "people", who: { username: "Ann" }, moderator: "yes" },
    ],
  },
  {
    k: "kick",
    good: [
      { k: "kick", username: "Pest", until: soon },
      { k: "kick", username: "Pest", userId: 7, accessCodeId: null, until: soon },
    ],
    bad: [
      { k: "kick", username: "Pest" },
      { k: "kick", username: "", until: soon },
      { k: "kick", username: "Pest", userId: "7", until: 1 },
      { k: "kick", username: "Pest", accessCodeId: -1, until: 1 },
    ],
  },
  {
    k: "reload",
    good: [
      { k: "reload", what: "moderation" },
      { k: "reload", what: "stream" },
    ],
    bad: [{ k: "reload", what: "everything" }, { k: "reload" }],
  },
  {
    k: "fake",
    good: [{ k: "fake", enabled: true, target: 100 }],
    bad: [
      { k: "fake", enabled: 1, target: 100 },
      { k: "fake", enabled: false, target: -1 },
    ],
  },
  { k: "wrote", good: [{ k: "wrote" }], bad: [{ k: "wrote " }, { k: "Wrote" }] },
  {
    k: "ingest",
    good: [
      { k: "ingest", what: "drop" },
      { k: "ingest", what: "changed" },
    ],
    bad: [{ k: "ingest", what: "stop" }, { k: "ingest" }],
  },
  {
    k: "admin-changed",
    good: [{ k: "admin-changed", adminId: 7 }],
    bad: [{ k: "admin-changed" }, { k: "admin-changed", adminId: -1 }, { k: "admin-changed", adminId: "7" }],
  },
];

describe("cluster messages", () => {
  for (const { k, good, bad } of kinds) {
    test(`a well-formed '${k}' message is understood and a malformed one ignored`, () => {
      for (const m of good) expect(clusterMessageSchema.safeParse(m).success).toBe(true);
      for (const m of bad) expect(clusterMessageSchema.safeParse(m).success).toBe(false);
    });
  }

  test("anything that is not a message of a known kind is ignored", () => {
    for (const m of [null, "wrote", [], {}, { k: "nope" }, { type: "wrote" }]) {
      expect(clusterMessageSchema.safeParse(m).success).toBe(false);
    }
  });

  test("a viewer-facing event is passed on as its sender wrote it", () => {
    const event = { type: "chat", message: { id: 1, text: "hi" }, extra: true };
    const envelope = readClusterEnvelope(JSON.stringify({ f: "alpha", m: { k: "event", event } }));
    expect(envelope).toEqual({ f: "alpha", m: { k: "event", event: event as never } });
  });

  test("only a named instance's message is read off the channel; junk is dropped", () => {
    expect(readClusterEnvelope(JSON.stringify({ f: "alpha", m: { k: "wrote" } }))).toEqual({ f: "alpha", m: { k: "wrote" } });
    for (const raw of [
      "not json",
      "null",
      "{}",
      "[]",
      JSON.stringify({ f: "", m: { k: "wrote" } }),
      JSON.stringify({ f: 7, m: { k: "wrote" } }),
      JSON.stringify({ m: { k: "kick", username: "Ann", until: 9e15 } }),
      JSON.stringify({ f: "mallory", m: { k: "presence", viewers: -5, sockets: 1, fake: null } }),
    ]) {
      expect(readClusterEnvelope(raw)).toBeNull();
    }
  });
});
