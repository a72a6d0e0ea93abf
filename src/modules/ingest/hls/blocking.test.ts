import { expect, test } from "bun:test";
import { Waiters } from "./blocking.ts";

test("a waiter is answered when notified with its condition met, not before; after its bound or abort it is answered false", async () => {
  const waiters = new Waiters();
  let have = 0;
  const first = waiters.wait(() => have >= 1, 1000);
  const second = waiters.wait(() => have >= 2, 1000);
  const bounded = waiters.wait(() => have >= 9, 30);
  const aborted = new AbortController();
  const cancelled = waiters.wait(() => have >= 9, 1000, aborted.signal);
  expect(await waiters.wait(() => true, 1000)).toBe(true);
  have = 1;
  waiters.notify();
  expect(await first).toBe(true);
  expect(waiters.size).toBe(3);
  aborted.abort();
  expect(await cancelled).toBe(false);
  expect(await bounded).toBe(false);
  have = 2;
  waiters.notify();
  expect(await second).toBe(true);
  expect(waiters.size).toBe(0);
  const dropped = waiters.wait(() => false, 1000);
  waiters.cancelAll();
  expect(await dropped).toBe(false);
});
