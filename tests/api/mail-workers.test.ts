import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeStore, openStore } from "../../src/db/database.ts";
import type { Store } from "../../src/db/store.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { MailService } from "../../src/modules/mail/service.ts";
import type { MailTransport, OutgoingMail } from "../../src/modules/mail/transport.ts";
import { TEST_ENGINE, databaseForDataDir } from "../support/postgres.ts";
import { eventually } from "../support/eventually.ts";

const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-mail-workers-"));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await closeStore(store);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A mail server that takes a while over each message and remembers who sent what. */
function slowTransport(sent: { worker: string; id: number }[], worker: string): MailTransport {
  return {
    description: `test transport ${worker}`,
    async send(mail: OutgoingMail) {
      await Bun.sleep(5 + Math.random() * 10);
      sent.push({ worker, id: mail.id });
    },
    close() {},
  };
}

test(`two workers on one ${TEST_ENGINE} queue send every message exactly once between them`, async () => {
  const databaseUrl = TEST_ENGINE === "postgres" ? await databaseForDataDir(dataDir) : null;
  const sent: { worker: string; id: number }[] = [];
  const workers: MailService[] = [];
  for (const name of ["first", "second"]) {
    const store = await openStore({ dataDir, databaseUrl });
    stores.push(store);
    workers.push(new MailService(store, slowTransport(sent, name), silentLogger, { pollMs: 20, batchSize: 5 }));
  }
  for (let i = 0; i < 60; i++) await workers[i % 2]!.enqueue({ to: `reader${i}@example.com`, subject: "A message", text: `number ${i}` });
  // Both work the queue at once, each taking a few at a time; neither releases the other's claims.
  for (const worker of workers) worker.start(false);
  await eventually(() => sent.length >= 60, 15_000);
  await Bun.sleep(200);
  for (const worker of workers) await worker.stop();
  const ids = sent.map((s) => s.id);
  expect(new Set(ids).size).toBe(60);
  expect(ids.length).toBe(60);
  expect(new Set(sent.map((s) => s.worker)).size).toBe(2);
  expect(await workers[0]!.counts()).toEqual({ pending: 0, sent: 60, failed: 0 });
}, 30_000);

/** The store with every statement it is asked to run counted by its first words. */
function counting(store: Store): { store: Store; statements: string[] } {
  const statements: string[] = [];
  const wrap =
    <K extends "run" | "get" | "all">(name: K) =>
    (sql: string, ...params: unknown[]) => {
      statements.push(sql.trim().split(/\s+/).slice(0, 3).join(" "));
      return (store[name] as (sql: string, ...params: unknown[]) => unknown)(sql, ...params);
    };
  return { store: Object.assign(Object.create(store) as Store, { run: wrap("run"), get: wrap("get"), all: wrap("all") }), statements };
}

test(`a sole worker on ${TEST_ENGINE} reads nothing while nothing is due: it sends what is queued at once, and a failed message when its retry falls due`, async () => {
  const databaseUrl = TEST_ENGINE === "postgres" ? await databaseForDataDir(mkdtempSync(join(tmpdir(), "dreadcast-mail-sole-"))) : null;
  const opened = await openStore({ dataDir: mkdtempSync(join(tmpdir(), "dreadcast-mail-sole-")), databaseUrl });
  stores.push(opened);
  const { store, statements } = counting(opened);
  const sent: { id: number; at: number }[] = [];
  let failNext = 0;
  const transport: MailTransport = {
    description: "test transport",
    async send(mail: OutgoingMail) {
      if (failNext > 0) {
        failNext--;
        throw new Error("the mail server is away");
      }
      sent.push({ id: mail.id, at: Date.now() });
    },
    close() {},
  };
  const worker = new MailService(store, transport, silentLogger, { retryBaseMs: 1500 });
  worker.start(true);
  await Bun.sleep(300);
  const settled = statements.length;
  // Idle for three seconds (three polls, once): not one statement.
  await Bun.sleep(3000);
  expect(statements.slice(settled)).toEqual([]);
  // Queued: sent at once.
  const queuedAt = Date.now();
  await worker.enqueue({ to: "reader@example.com", subject: "Your pass", text: "SKP-1" });
  await eventually(() => sent.length === 1, 2000, "the queued message sent");
  expect(sent[0]!.at - queuedAt).toBeLessThan(500);
  // The mail server away once: the retry goes when it falls due (1.5 s later), not before, and then nothing more.
  failNext = 1;
  const failedAt = Date.now();
  await worker.enqueue({ to: "reader@example.com", subject: "Your receipt", text: "£1.00" });
  await eventually(() => sent.length === 2, 5000, "the failed message retried");
  expect(sent[1]!.at - failedAt).toBeGreaterThanOrEqual(1400);
  expect(sent[1]!.at - failedAt).toBeLessThan(3500);
  await Bun.sleep(300);
  const after = statements.length;
  await Bun.sleep(2000);
  expect(statements.slice(after)).toEqual([]);
  await worker.stop();
  expect(await worker.counts()).toEqual({ pending: 0, sent: 2, failed: 0 });
}, 30_000);
