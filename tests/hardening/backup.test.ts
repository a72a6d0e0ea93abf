import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { createContext, disposeContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { WsClient } from "../support/ws.ts";
import { startServer, type ServerProcess } from "../support/server.ts";
import { viewerSession } from "../support/viewer.ts";
import { BUN, ROOT, tempDir } from "../support/hardening.ts";

/**
 * `dreadcast backup` while the chat is busy: the archive restores, its database opens, passes
 * integrity_check and holds every message acknowledged before the backup began.
 */

let server: ServerProcess | null = null;
const dataDir = tempDir("backup");
const restored = tempDir("backup-restored");
afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(restored, { recursive: true, force: true });
});

test("a backup taken under live chat load is sound and holds every message acknowledged before it began", async () => {
  const setupDb = await openStore({ dataDir });
  const setupCtx = await createContext({ ...defaultConfig(), dataDir }, setupDb, silentLogger);
  const people = await Promise.all(Array.from({ length: 20 }, async (_, i) => (await viewerSession(setupCtx, `keeper${i}`, "SKP")).cookie));
  await disposeContext(setupCtx);
  await closeStore(setupDb);

  server = await startServer(dataDir, ["--trust-proxy", "127.0.0.1"]);
  const url = server.url;
  const sockets = await Promise.all(people.map(async (cookie, i) => WsClient.open({ url }, { cookie: await cookie, "x-forwarded-for": `10.50.0.${i}` })));
  const acked = new Map<string, number>();
  let load = true;
  let sent = 0;
  const talk = async (socket: WsClient, i: number) => {
    for (let n = 0; load; n++) {
      const text = `keeper${i} whispers ${n}`;
      socket.send({ type: "chat_message", text });
      sent++;
      void socket.waitFor((e) => e.type === "chat" && e.message.text === text, 5000).then((e) => e && acked.set(text, Date.now()));
      await Bun.sleep(1000 + (i % 7) * 10);
    }
  };
  const talking = sockets.map(talk);
  await Bun.sleep(3000);

  // What was acknowledged before the backup began must be in it.
  const before = new Set(acked.keys());
  const file = join(dataDir, "backup.dreadcast");
  const started = Date.now();
  // Spawned without blocking: the chatters keep talking while it runs.
  const env = { ...process.env, DREADCAST_BACKUP_PASSPHRASE: "wormwood lantern cellar 1907" };
  const proc = Bun.spawn([BUN, "src/main.ts", "backup", file, "--data-dir", dataDir], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const sentBefore = sent;
  const result = { status: await proc.exited, stdout: await new Response(proc.stdout).text() };
  const took = Date.now() - started;
  const sentDuring = sent - sentBefore;
  await Bun.sleep(1500);
  load = false;
  await Promise.all(talking);
  expect(result.status).toBe(0);
  expect(result.stdout).toContain("backup written to");

  // What an operator checks a backup with: restored into a folder of its own.
  const restore = Bun.spawnSync([BUN, "src/main.ts", "restore", file, "--data-dir", restored], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  expect(restore.stderr.toString()).toBe("");
  expect(restore.exitCode).toBe(0);
  const copy = new Database(join(restored, "dreadcast.db"), { readonly: true });
  try {
    expect(copy.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
    const kept = new Set(
      copy
        .query<{ text: string }, []>("SELECT text FROM chat_messages")
        .all()
        .map((r) => r.text),
    );
    const missing = [...before].filter((t) => !kept.has(t));
    expect(missing).toEqual([]);
    expect(before.size).toBeGreaterThan(20);
    console.log(
      `backup: ${took} ms under load from ${sockets.length} chatters (${sent} lines sent, ${sentDuring} while it ran, ${acked.size} acknowledged); ${before.size} acknowledged before it began, all in the copy of ${kept.size}`,
    );
  } finally {
    copy.close();
  }
  for (const s of sockets) s.close();
  // The live server carried on throughout.
  expect((await fetch(url + "/healthz")).status).toBe(200);
}, 60_000);
