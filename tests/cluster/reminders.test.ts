import { afterAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { startTestRedis, type TestRedis } from "../support/redis.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { buyDemoCode } from "../support/viewer.ts";

/**
 * Two instances of a cluster (one PostgreSQL database, a Redis server of the test's own) and one SMTP
 * server: the reminders before the start reach each buyer once, whichever instance looks at the schedule.
 */
const redis: TestRedis | null = await startTestRedis();
const postgres = await postgresAvailable();
const ready = redis !== null && postgres;
if (!ready) console.warn(`cluster reminder tests skipped: ${redis ? "" : "no redis-server binary; "}${postgres ? "" : "no PostgreSQL server answers"}`);

const HOUR = 3_600_000;
let db: TestDatabase | null = null;
let smtp: TestSmtpServer | null = null;
const apps: TestApp[] = [];

afterAll(async () => {
  for (const app of apps.splice(0)) await app.close().catch(() => {});
  await db?.drop().catch(() => {});
  await smtp?.close();
  await redis?.stop();
});

test.skipIf(!ready)(
  "each buyer gets each reminder once from a cluster of two, the clock moved forward on both at once",
  async () => {
    db = await createTestDatabase("dreadcast_cluster");
    smtp = await startSmtpServer();
    for (const name of ["alpha", "beta"]) apps.push(await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: name, smtpUrl: smtp.url }));
    const [alpha, beta] = apps as [TestApp, TestApp];
    const start = Date.parse("2030-10-31T21:00:00.000Z");
    await alpha.ctx.settings.update({ eventTitle: "Hollow Farm", startDate: new Date(start).toISOString() });
    const buyers = ["ann@example.com", "bob@example.com", "cat@example.com"];
    for (const [i, email] of buyers.entries()) await buyDemoCode((i % 2 ? beta : alpha).client(), email);
    await eventually(async () => (await beta.ctx.settings.get()).startDate === new Date(start).toISOString(), 5000, "beta to see the start");

    const reminded = (email: string, subject: string) => smtp!.messages.filter((m) => m.to.includes(email) && m.subject === subject);
    for (const [at, subject] of [
      [start - 23 * HOUR, "Hollow Farm starts in 23 hours"],
      [start - 10 * 60_000, "Hollow Farm starts in 10 minutes"],
    ] as const) {
      const runs = await Promise.all([alpha.ctx.reminders.runDue(at), beta.ctx.reminders.runDue(at), alpha.ctx.reminders.runDue(at), beta.ctx.reminders.runDue(at)]);
      expect(runs.reduce((a, b) => a + b, 0)).toBe(buyers.length);
      await eventually(() => buyers.every((email) => reminded(email, subject).length > 0), 10_000, subject);
    }
    // Both instances' mail workers and schedules run on: nothing is sent twice.
    await Promise.all([alpha.ctx.mail.processDue(), beta.ctx.mail.processDue()]);
    await Bun.sleep(500);
    for (const email of buyers) {
      expect(reminded(email, "Hollow Farm starts in 23 hours")).toHaveLength(1);
      expect(reminded(email, "Hollow Farm starts in 10 minutes")).toHaveLength(1);
    }
  },
  60_000,
);
