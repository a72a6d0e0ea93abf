import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BLOCKED_LINK_NOTICE, BLOCKED_WORD_NOTICE } from "../../src/contracts/chat-limits.ts";
import { eventually } from "../support/eventually.ts";
import { acrossRestart, adminOf, loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { joinAs } from "../support/viewer.ts";
import { WsClient } from "../support/ws.ts";

let app: TestApp;
let admin: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  admin = await adminOf(app);
});
afterAll(() => app.close());

const RULES = { slowModeSeconds: 0, blockedTerms: ["hate", "kill yourself"], filterAction: "block", blockLinks: false };

/** Sends a line and returns what became of it: the text everyone saw, or the notice the sender alone got. */
async function outcome(sender: WsClient, watcher: WsClient, text: string): Promise<{ shown: string } | { notice: string }> {
  const seen = new Set([...sender.of("system_message"), ...watcher.of("chat")]);
  const marker = `${text} ·${Math.random().toString(36).slice(2, 6)}`;
  sender.send({ type: "chat_message", text: marker });
  for (;;) {
    const line = watcher.of("chat").find((e) => !seen.has(e) && e.message.text.endsWith(marker.slice(text.length)));
    if (line) return { shown: line.message.text.slice(0, -(marker.length - text.length)) };
    const notice = sender.of("system_message").find((e) => !seen.has(e));
    if (notice) return { notice: notice.message };
    await Bun.sleep(10);
  }
}

/** Many lines from one sender, paced under the chat rate limit (3 a second, 5 in 5 s) by using fresh senders. */
async function senders(count: number, kind: "SCP" | "MOD" = "SCP"): Promise<WsClient[]> {
  return Promise.all(Array.from({ length: count }, async (_, i) => WsClient.connect(app, await joinAs(app, `Fil${kind}${i}${Math.random().toString(36).slice(2, 6)}`, kind))));
}

describe("blocked words", () => {
  test("a change reaches an open chat at once: the sender alone is told, nobody sees the line, the log keeps it", async () => {
    const [sender, watcher] = await senders(2);
    expect(await outcome(sender!, watcher!, "I hate this")).toEqual({ shown: "I hate this" });
    expect((await admin.put("/api/admin/chat-rules", RULES)).status).toBe(200);
    expect(await outcome(sender!, watcher!, "I hate this")).toEqual({ notice: BLOCKED_WORD_NOTICE });
    // The refusal is logged in the background, so the sender can be told before the entry is written.
    const refused = await eventually(async () => (await app.ctx.chat.moderation.log.list({ action: "filtered" }))[0], 5000, "the refused line in the moderation log");
    expect(refused).toMatchObject({ action: "filtered", moderator: null, detail: "blocked term: hate" });
    expect(refused.target).toStartWith("FilSCP");
    expect(refused.messageText).toStartWith("I hate this");
    sender!.close();
    watcher!.close();
  });

  test("look-alike evasions are caught; innocent words containing the term are not", async () => {
    expect((await admin.put("/api/admin/chat-rules", RULES)).status).toBe(200);
    const evasions = ["H4TE", "hâte", "ｈａｔｅ", "h@t3", "HaTe!!!", "K1LL   yourse1f"];
    const innocent = ["whatever", "hateful", "that chat", "skill"];
    const pool = await senders(evasions.length + innocent.length + 1);
    const watcher = pool.pop()!;
    for (const [i, text] of evasions.entries()) expect(await outcome(pool[i]!, watcher, text)).toEqual({ notice: BLOCKED_WORD_NOTICE });
    for (const [i, text] of innocent.entries()) expect(await outcome(pool[evasions.length + i]!, watcher, text)).toEqual({ shown: text });
    for (const ws of [...pool, watcher]) ws.close();
  });

  test("mask replaces the word with asterisks for everyone", async () => {
    expect((await admin.put("/api/admin/chat-rules", { ...RULES, filterAction: "mask" })).status).toBe(200);
    const [sender, watcher] = await senders(2);
    expect(await outcome(sender!, watcher!, "you h4te it, kill yourself")).toEqual({ shown: "you **** it, **** ********" });
    sender!.close();
    watcher!.close();
  });
});

describe("links", () => {
  test("refused from viewers when blocked, allowed from moderators, allowed again when unblocked", async () => {
    expect((await admin.put("/api/admin/chat-rules", { ...RULES, blockLinks: true })).status).toBe(200);
    const [a, b, c, watcher] = await senders(4);
    const [mod] = await senders(1, "MOD");
    expect(await outcome(a!, watcher!, "free skins at scam.gg/now")).toEqual({ notice: BLOCKED_LINK_NOTICE });
    expect(await outcome(b!, watcher!, "https://example.com/x")).toEqual({ notice: BLOCKED_LINK_NOTICE });
    expect(await outcome(c!, watcher!, "e.g. this is fine")).toEqual({ shown: "e.g. this is fine" });
    expect(await outcome(mod!, watcher!, "rules: https://example.com/rules")).toEqual({ shown: "rules: https://example.com/rules" });
    await eventually(async () => (await app.ctx.chat.moderation.log.list({ action: "filtered" }))[0]?.detail === "link", 5000, "a refused link in the moderation log");
    expect((await admin.put("/api/admin/chat-rules", { ...RULES, blockLinks: false })).status).toBe(200);
    expect(await outcome(a!, watcher!, "scam.gg/now")).toEqual({ shown: "scam.gg/now" });
    for (const ws of [a, b, c, watcher, mod]) ws!.close();
  });
});

describe("the chat-rules API", () => {
  test("reads and saves the rules, one entry per term whatever its case, and logs the change", async () => {
    const saved = await admin.put("/api/admin/chat-rules", { slowModeSeconds: 10, blockedTerms: [" Hate ", "hate", "Gore"], filterAction: "mask", blockLinks: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ slowModeSeconds: 10, blockedTerms: ["hate", "Gore"], filterAction: "mask", blockLinks: true });
    expect((await admin.get("/api/admin/chat-rules")).body).toEqual(saved.body);
    const change = (await app.ctx.chat.moderation.log.list({ action: "chat_rules" }))[0]!;
    expect(change.moderator).toBe("warden");
    expect(change.detail).toContain("added 1 term (Gore)");
    expect((await admin.put("/api/admin/chat-rules", RULES)).status).toBe(200);
  });

  const bad: [string, unknown, string][] = [
    ["slow mode not a choice", { ...RULES, slowModeSeconds: 7 }, "Slow mode must be 5, 10, 30, 60, 120 seconds or 0 (off)"],
    ["unknown action", { ...RULES, filterAction: "nuke" }, "filterAction must be 'block' or 'mask'"],
    ["terms not a list", { ...RULES, blockedTerms: "hate" }, "blockedTerms must be a list of words"],
    ["an empty term", { ...RULES, blockedTerms: ["  "] }, "A blocked term cannot be empty"],
    ["punctuation only", { ...RULES, blockedTerms: ["!!!"] }, "A blocked term needs at least one letter or digit"],
    ["a term too long", { ...RULES, blockedTerms: ["x".repeat(61)] }, "A blocked term must be 60 characters or less"],
    ["too many terms", { ...RULES, blockedTerms: Array.from({ length: 2001 }, (_, i) => `t${i}`) }, "At most 2000 blocked terms"],
    ["blockLinks missing", { ...RULES, blockLinks: undefined }, "blockLinks must be true or false"],
  ];
  for (const [name, body, message] of bad) {
    test(`400 with a clear message: ${name}; nothing saved`, async () => {
      const before = (await admin.get("/api/admin/chat-rules")).body;
      const res = await admin.put("/api/admin/chat-rules", body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect((await admin.get("/api/admin/chat-rules")).body).toEqual(before);
    });
  }

  test("401 without an admin session, 403 from another site", async () => {
    expect((await app.client().get("/api/admin/chat-rules")).status).toBe(401);
    expect((await app.client().put("/api/admin/chat-rules", RULES)).status).toBe(401);
    expect((await admin.put("/api/admin/chat-rules", RULES, { origin: "https://evil.example" })).status).toBe(403);
  });
});

test("the rules survive a restart", async () => {
  const rules = { slowModeSeconds: 60, blockedTerms: ["spoiler", "the killer is"], filterAction: "mask", blockLinks: true };
  await acrossRestart(
    async (first) => {
      expect((await (await loginAsAdmin(first)).put("/api/admin/chat-rules", rules)).status).toBe(200);
    },
    async (second) => {
      expect((await (await loginAsAdmin(second)).get("/api/admin/chat-rules")).body).toEqual(rules);
      const ws = await WsClient.connect(second, await joinAs(second, "Returner"));
      expect(await ws.next("slow_mode")).toEqual({ type: "slow_mode", seconds: 60 });
      ws.send({ type: "chat_message", text: "THE K1LLER IS the butler" });
      expect((await ws.next("chat")).message.text).toBe("*** ****** ** the butler");
      ws.close();
    },
  );
});
