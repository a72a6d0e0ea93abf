import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "@contracts/chat";
import { donationHeartCount, HEART_LIFETIME_MS, LiveStore, VISIBLE_MESSAGES } from "./live-store";

function line(id: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return { id: String(id), username: `user${id % 3}`, text: `line ${id}`, timestamp: "2030-01-01T00:00:00.000Z", type: "user", isPinned: false, ...overrides };
}

/** A store whose timers run only when asked, with their delays recorded. */
function storeWithClock() {
  const timers: { ms: number; run: () => void; done: boolean }[] = [];
  const store = new LiveStore(() => 0.5, {
    setTimeout: (run, ms) => {
      const timer = { ms, run, done: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      (timer as { done: boolean }).done = true;
    },
  });
  const runUntil = (ms: number) => {
    for (const timer of timers) {
      if (!timer.done && timer.ms <= ms) {
        timer.done = true;
        timer.run();
      }
    }
  };
  return { store, timers, runUntil };
}

describe("donationHeartCount", () => {
  test("is floor(pounds / 2) between 3 and 10", () => {
    expect([1, 5, 6, 7, 8, 10, 19, 20, 21, 50, 100].map(donationHeartCount)).toEqual([3, 3, 3, 3, 4, 5, 9, 10, 10, 10, 10]);
  });
});

describe("LiveStore", () => {
  test("history replaces the list; new lines append and only the last 100 are kept, the last 7 shown", () => {
    const { store } = storeWithClock();
    store.apply({ type: "chatHistory", messages: [line(1), line(2)] });
    for (let i = 3; i <= 105; i++) store.apply({ type: "chat", message: line(i) });
    expect(store.messages.value).toHaveLength(100);
    expect(store.messages.value[0]!.id).toBe("6");
    expect(store.visibleMessages.value.map((m) => m.id)).toEqual(["99", "100", "101", "102", "103", "104", "105"]);
    expect(VISIBLE_MESSAGES).toBe(7);
    store.apply({ type: "chatHistory", messages: [line(1)] });
    expect(store.messages.value.map((m) => m.id)).toEqual(["1"]);
  });

  test("a batch is one update: its lines append in order, the last 100 kept, the last 7 shown, donations float hearts", () => {
    const { store, timers } = storeWithClock();
    store.apply({ type: "chatHistory", messages: [line(1), line(2)] });
    let updates = 0;
    const unsubscribe = store.visibleMessages.subscribe(() => updates++);
    updates = 0;
    const batch = Array.from({ length: 110 }, (_, i) => line(i + 3, i === 50 ? { type: "donation", donation: 20 } : {}));
    store.apply({ type: "chat_batch", messages: batch });
    unsubscribe();
    expect(updates).toBe(1);
    expect(store.messages.value).toHaveLength(100);
    expect(store.messages.value.map((m) => m.id)).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 13)));
    expect(store.visibleMessages.value.map((m) => m.id)).toEqual(["106", "107", "108", "109", "110", "111", "112"]);
    expect(store.hearts.value).toHaveLength(1);
    expect(timers.filter((t) => t.ms < HEART_LIFETIME_MS)).toHaveLength(donationHeartCount(20) - 1);
  });

  test("pin updates replace the message; deletes, kicks and bans remove lines", () => {
    const { store } = storeWithClock();
    store.apply({
      type: "chatHistory",
      messages: [line(1, { username: "Ghoul" }), line(2, { username: "ghoul" }), line(3, { username: "Wraith" }), line(4, { username: "Ghoul", type: "system" })],
    });
    store.apply({ type: "message_updated", message: line(3, { username: "Wraith", isPinned: true }) });
    expect(store.pinned.value?.id).toBe("3");
    store.apply({ type: "message_updated", message: line(3, { username: "Wraith", isPinned: false }) });
    expect(store.pinned.value).toBeNull();
    store.apply({ type: "user_kicked", username: "GHOUL" });
    expect(store.messages.value.map((m) => m.id)).toEqual(["3", "4"]);
    store.apply({ type: "message_deleted", messageId: "3" });
    store.apply({ type: "user_banned", username: "nobody" });
    expect(store.messages.value.map((m) => m.id)).toEqual(["4"]);
  });

  test("notices and refusals become local system lines", () => {
    const { store } = storeWithClock();
    store.apply({ type: "system_message", message: "You are sending messages too fast. Please wait 1 second." });
    store.apply({ type: "error", message: "Only moderators can do that." });
    expect(store.messages.value.map((m) => [m.type, m.text])).toEqual([
      ["system", "You are sending messages too fast. Please wait 1 second."],
      ["system", "Only moderators can do that."],
    ]);
    expect(new Set(store.messages.value.map((m) => m.id)).size).toBe(2);
  });

  test("counts, donation progress, settings and the moderator flag follow the server", () => {
    const { store } = storeWithClock();
    store.apply({ type: "viewer_count", count: 40 });
    store.apply({ type: "stats", stats: { heartCount: 9, viewerCount: 41 } });
    store.apply({ type: "donation_update", current: 2500, goal: 5000 });
    store.apply({ type: "auth_ok", username: "Ghoul", isModerator: true });
    expect([store.viewerCount.value, store.heartCount.value]).toEqual([41, 9]);
    expect(store.donation.value).toEqual({ current: 2500, goal: 5000 });
    expect([store.username.value, store.isModerator.value]).toEqual(["Ghoul", true]);
    store.apply({
      type: "settings_update",
      settings: {
        eventTitle: "New",
        embedUrl: "",
        thumbnailUrl: "/t.jpg",
        donationGoal: 9000,
        isActive: true,
        startDate: "2030-01-01T00:00:00.000Z",
        phase: "upcoming",
        night: { onAir: false, openedAt: null, wentLiveAt: null, endedAt: null, latestEnd: null, onSale: true, cancelledAt: null, cancelNote: "" },
      },
    });
    expect(store.settings.value?.eventTitle).toBe("New");
  });

  test("a heart lasts 2.5 s; a donation floats its hearts 200 ms apart", () => {
    const { store, timers, runUntil } = storeWithClock();
    store.sentHeart();
    expect(store.hearts.value).toHaveLength(1);
    expect(timers[0]!.ms).toBe(HEART_LIFETIME_MS);
    runUntil(HEART_LIFETIME_MS);
    expect(store.hearts.value).toHaveLength(0);

    store.apply({ type: "chat", message: line(1, { type: "donation", donation: 20, text: "donated £20.00" }) });
    expect(store.hearts.value).toHaveLength(1);
    const spawns = timers.filter((t) => !t.done && t.ms !== HEART_LIFETIME_MS).map((t) => t.ms);
    expect(spawns).toEqual([200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800]);
  });

  test("a rising heart count floats hearts for other viewers but not again for this viewer's own, nor for the snapshot", () => {
    const { store } = storeWithClock();
    store.setConnection({ state: "open", attempt: 0, removedWith: null });
    store.apply({ type: "hearts", count: 100 });
    expect(store.hearts.value).toHaveLength(0);
    store.sentHeart();
    store.apply({ type: "hearts", count: 101 });
    expect(store.hearts.value).toHaveLength(1);
    store.apply({ type: "hearts", count: 102 });
    expect(store.hearts.value).toHaveLength(2);
  });

  test("dispose cancels the pending timers", () => {
    const { store, timers } = storeWithClock();
    store.floatDonationHearts(100);
    store.dispose();
    expect(timers.every((t) => t.done)).toBe(true);
  });
});

describe("LiveStore moderation state", () => {
  test("slow mode and cooldowns: set, counted from this browser's clock, cleared when lifted or switched off", () => {
    let now = 1_000_000;
    const store = new LiveStore(
      () => 0.5,
      undefined,
      () => now,
    );
    store.apply({ type: "slow_mode", seconds: 30 });
    store.apply({ type: "chat_cooldown", reason: "slow_mode", seconds: 30 });
    expect([store.slowModeSeconds.value, store.cooldown.value]).toEqual([30, { reason: "slow_mode", until: 1_030_000 }]);
    store.apply({ type: "slow_mode", seconds: 0 });
    expect(store.cooldown.value).toBeNull();
    now += 5000;
    store.apply({ type: "chat_cooldown", reason: "timeout", seconds: 300 });
    store.apply({ type: "slow_mode", seconds: 0 });
    expect(store.cooldown.value).toEqual({ reason: "timeout", until: 1_305_000 });
    store.apply({ type: "chat_cooldown", reason: "timeout", seconds: 0 });
    expect(store.cooldown.value).toBeNull();
  });

  test("auth_ok can take moderator rights back", () => {
    const store = new LiveStore();
    store.apply({ type: "auth_ok", username: "Deputy", isModerator: true });
    store.apply({ type: "auth_ok", username: "Deputy", isModerator: false });
    expect(store.isModerator.value).toBe(false);
  });
});
