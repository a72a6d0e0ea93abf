import { describe, expect, test } from "bun:test";
import { clusterNamespace, isClusterMessage } from "./cluster.ts";

describe("cluster messages", () => {
  test("the messages an instance sends are understood", () => {
    for (const m of [
      { k: "event", event: { type: "chat", message: {} } },
      { k: "presence", viewers: 3, sockets: 4, fake: null },
      { k: "presence", viewers: 0, sockets: 0, fake: 200 },
      { k: "hearts", total: 12 },
      { k: "people", who: { username: "Ann", userId: 3, accessCodeId: null }, close: { code: 4001, reason: "Banned", notice: "…" } },
      { k: "people", who: { userId: 7 }, moderator: true },
      { k: "people", who: { accessCodeId: 9 }, send: [{ type: "chat_cooldown", reason: "timeout", seconds: 0 }] },
      { k: "kick", username: "Pest", until: Date.now() + 60_000 },
      { k: "kick", username: "Pest", userId: 7, accessCodeId: null, until: Date.now() + 60_000 },
      { k: "reload", what: "moderation" },
      { k: "reload", what: "stream" },
      { k: "fake", enabled: true, target: 100 },
      { k: "wrote" },
    ]) {
      expect(isClusterMessage(m)).toBe(true);
    }
  });

  test("anything else is ignored, not applied half-way", () => {
    for (const m of [
      null,
      "wrote",
      [],
      {},
      { k: "nope" },
      { k: "event" },
      { k: "event", event: "chat" },
      { k: "event", event: { message: {} } },
      { k: "presence", viewers: -1, sockets: 0, fake: null },
      { k: "presence", viewers: Number.NaN, sockets: 0, fake: null },
      { k: "presence", viewers: 1, sockets: 1 },
      { k: "hearts", total: "12" },
      { k: "people", who: null },
      { k: "people", who: { username: "" } },
      { k: "people", who: { userId: "7" } },
      { k: "people", who: { username: "Ann" }, send: { type: "x" } },
      { k: "people", who: { username: "Ann" }, close: { code: "4001" } },
      { k: "people", who: { username: "Ann" }, moderator: "yes" },
      { k: "kick", username: "Pest" },
      { k: "kick", username: "Pest", userId: "7", until: 1 },
      { k: "kick", username: "Pest", accessCodeId: -1, until: 1 },
      { k: "reload", what: "everything" },
      { k: "fake", enabled: 1, target: 100 },
    ]) {
      expect(isClusterMessage(m)).toBe(false);
    }
  });

  test("one namespace per event database, never showing the password", () => {
    const a = clusterNamespace("postgres://app:secret@db.internal:5432/event_one");
    expect(a).toMatch(/^dreadcast:[0-9a-z]+$/);
    expect(a).not.toContain("secret");
    expect(clusterNamespace("postgres://other:pass@db.internal/event_one")).toBe(a);
    expect(clusterNamespace("postgres://app:secret@db.internal:5432/event_two")).not.toBe(a);
    expect(clusterNamespace("postgres://app:secret@db2.internal:5432/event_one")).not.toBe(a);
  });
});
