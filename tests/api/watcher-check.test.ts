/**
 * The stream gate's kept verdicts: reused while nothing they were read from is written — a recording's
 * rows or the heart counter do not throw them away — and looked up afresh after a ban or an ended session.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { WatcherCheck } from "../../src/modules/stream/watchers.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { viewerSession } from "../support/viewer.ts";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app.close();
});

const requestWith = (cookie: string) => new Request(`${app.url}/stream/x.m3u8`, { headers: { cookie } });

test("a kept verdict outlives writes to other tables, and a ban or an ended session is seen on the very next request", async () => {
  const check = new WatcherCheck(app.ctx);
  const raven = await viewerSession(app.ctx, "raven");
  const crow = await viewerSession(app.ctx, "crow");

  // The first request looks the session up; the next is answered from the kept verdict, at once.
  const first = check.require(requestWith(raven.cookie));
  expect(first).toBeInstanceOf(Promise);
  expect(await first).toMatchObject({ role: "viewer", username: "raven" });
  expect(check.require(requestWith(raven.cookie))).toMatchObject({ role: "viewer", username: "raven" });
  await check.require(requestWith(crow.cookie));

  // A recording's row and a heart are written every second of a live night: the verdicts stay.
  await app.ctx.recordings.begin(Date.now(), 640, 360);
  await app.ctx.store.run("INSERT INTO event_counters (name, value) VALUES ('hearts', 1) ON CONFLICT (name) DO UPDATE SET value = event_counters.value + 1");
  expect(check.require(requestWith(raven.cookie))).not.toBeInstanceOf(Promise);

  // A ban is a write to what a verdict is read from: the banned viewer is refused at once.
  await app.ctx.chat.ban("raven", null, "warden");
  const afterBan = check.require(requestWith(raven.cookie));
  expect(afterBan).toBeInstanceOf(Promise);
  expect(await Promise.resolve(afterBan).catch((error: unknown) => (error as { status?: number }).status)).toBe(403);

  // The other viewer is looked up again too (the ban could have been theirs), and then kept again.
  expect(await check.require(requestWith(crow.cookie))).toMatchObject({ username: "crow" });
  expect(check.require(requestWith(crow.cookie))).not.toBeInstanceOf(Promise);

  // An ended session (signed out, or ended from the panel) is refused on its next request.
  await app.ctx.viewerSessions.end(crow.cookie.split("=")[1]);
  expect(await Promise.resolve(check.require(requestWith(crow.cookie))).catch((error: unknown) => (error as { status?: number }).status)).toBe(401);
});
