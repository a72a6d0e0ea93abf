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
