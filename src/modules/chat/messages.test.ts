import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, testEngines, type TestDatabase } from "../../../tests/support/postgres.ts";
import { closeStore, openStore } from "../../db/database.ts";
import type { Store } from "../../db/store.ts";
import { ChatMessageStore, type NewMessage } from "./messages.ts";

const draft = (username: string, text: string): NewMessage => ({ userId: null, username, text, type: "user" });

for (const engine of await testEngines()) {
  describe(`the chat log on ${engine}`, () => {
    let store: Store;
    let other: Store | null = null;
    let dataDir: string;
    let pg: TestDatabase | null = null;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "dreadcast-chatlog-"));
      if (engine === "postgres") pg = await createTestDatabase();
      store = await openStore({ dataDir, databaseUrl: pg?.url });
      // A second instance of a cluster: its own pool on the same database.
      if (pg) other = await openStore({ dataDir: mkdtempSync(join(tmpdir(), "dreadcast-chatlog-")), databaseUrl: pg.url });
    });
    afterAll(async () => {
      if (other) await closeStore(other);
      await closeStore(store);
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const seqs = async () => (await store.all<{ seq: number; text: string }>("SELECT seq, text FROM chat_messages ORDER BY seq")).map((r) => [r.seq, r.text] as const);

    test("a window's lines are stored in order under the next numbers, and read back in that order", async () => {
      const log = new ChatMessageStore(store);
      await log.load();
      const stored = await log.addMany([draft("ada", "one"), draft("bo", "two"), draft("cy", "three")]);
      expect(stored.map((s) => ("line" in s ? s.line.text : null))).toEqual(["one", "two", "three"]);
      await log.add(draft("ada", "four"));
      expect(await seqs()).toEqual([
        [1, "one"],
        [2, "two"],
        [3, "three"],
        [4, "four"],
      ]);
      const fresh = new ChatMessageStore(store);
      await fresh.load();
      expect(fresh.history().map((m) => m.text)).toEqual(["one", "two", "three", "four"]);
    });

    test.skipIf(engine !== "postgres")("two instances writing at once never share a number, and each one's lines keep their order", async () => {
      const before = (await seqs()).length;
      const a = new ChatMessageStore(store);
      const b = new ChatMessageStore(other!);
      // Each instance writes one window after the other (as its fan-out does); the two at the same time.
      const instanceA = async () => {
        for (let i = 0; i < 40; i++) await a.addMany([draft("ada", `a${i}.0`), draft("ada", `a${i}.1`)]);
      };
      const instanceB = async () => {
        for (let i = 0; i < 40; i++) await b.add(draft("bo", `b${i}`));
      };
      await Promise.all([instanceA(), instanceB()]);
      const rows = (await seqs()).slice(before);
      expect(rows).toHaveLength(120);
      expect(rows.map(([seq]) => seq)).toEqual(Array.from({ length: 120 }, (_, i) => before + i + 1));
      // Each window's two lines sit together, in order; each instance's lines follow the order it sent them.
      const texts = rows.map(([, text]) => text);
      for (let i = 0; i < 40; i++) expect(texts.indexOf(`a${i}.1`)).toBe(texts.indexOf(`a${i}.0`) + 1);
      const order = (prefix: string) => texts.filter((t) => t.startsWith(prefix));
      expect(order("b")).toEqual(Array.from({ length: 40 }, (_, i) => `b${i}`));
      expect(order("a").filter((t) => t.endsWith(".0"))).toEqual(Array.from({ length: 40 }, (_, i) => `a${i}.0`));
    });

    test.skipIf(engine !== "postgres")("rows the counter does not know of (an older instance's, or a copied log's) are followed, not collided with", async () => {
      const log = new ChatMessageStore(store);
      const last = (await seqs()).at(-1)![0];
      // An instance of an earlier version numbers its line from the table alone, past the counter.
      await store.run(
        "INSERT INTO chat_messages (id, seq, username, text, type, created_at) VALUES ('older-1', ?, 'old', 'from an older instance', 'user', ?)",
        last + 1,
        Date.now(),
      );
      await log.add(draft("ada", "after the older one"));
      // A log copied in, without the counter.
      await store.run("DELETE FROM event_counters WHERE name = 'chat_seq'");
      await log.add(draft("ada", "after the copy"));
      await log.add(draft("ada", "and on"));
      expect((await seqs()).slice(-4)).toEqual([
        [last + 1, "from an older instance"],
        [last + 2, "after the older one"],
        [last + 3, "after the copy"],
        [last + 4, "and on"],
      ]);
      expect(await store.get("SELECT value FROM event_counters WHERE name = 'chat_seq'")).toEqual({ value: last + 4 });
    });

    test.skipIf(engine !== "postgres")(
      "an older instance numbering its line under the chat's lock (a rolling upgrade) never collides with a line numbered from the counter",
      async () => {
        const log = new ChatMessageStore(store);
        await log.add(draft("ada", "before the upgrade"));
        let go!: () => void;
        const gate = new Promise<void>((resolve) => (go = resolve));
        let locked!: () => void;
        const holding = new Promise<void>((resolve) => (locked = resolve));
        // The earlier version's way: the chat's lock, the table's last number, the insert, commit.
        const older = other!.tx(async () => {
          await other!.lock("chat_messages");
          const last = Number((await other!.get<{ seq: number }>("SELECT COALESCE(MAX(seq), 0) AS seq FROM chat_messages"))!.seq);
          locked();
          await gate;
          await other!.run(
            "INSERT INTO chat_messages (id, seq, username, text, type, created_at) VALUES ('older-2', ?, 'old', 'numbered by an older instance', 'user', ?)",
            last + 1,
            Date.now(),
          );
          return last;
        });
        await holding;
        let stored = false;
        const newer = log.add(draft("ada", "numbered from the counter")).then((result) => ((stored = true), result));
        await Bun.sleep(300);
        expect(stored).toBe(false); // it waits for the older instance's lock
        go();
        const last = await older;
        await newer;
        expect((await seqs()).slice(-2)).toEqual([
          [last + 1, "numbered by an older instance"],
          [last + 2, "numbered from the counter"],
        ]);
      },
    );
  });
}
