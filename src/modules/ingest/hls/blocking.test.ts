import { expect, test } from "bun:test";
import { SWEEP_MS, Waiters } from "./blocking.ts";

test("a waiter is answered when notified with its condition met, not before; after its bound it is answered false", async () => {
  const waiters = new Waiters();
  let have = 0;
  const first = waiters.wait(() => have >= 1, 1000);
  const second = waiters.wait(() => have >= 2, 1000);
  const bounded = waiters.wait(() => have >= 9, 30);
  expect(await waiters.wait(() => true, 1000)).toBe(true);
  have = 1;
  waiters.notify();
  expect(await first).toBe(true);
  expect(waiters.size).toBe(2);
  const boundedAt = performance.now();
  expect(await bounded).toBe(false);
  // Answered by the sweep, at most one interval past its bound.
  expect(performance.now() - boundedAt).toBeLessThan(30 + SWEEP_MS + 50);
  have = 2;
  waiters.notify();
  expect(await second).toBe(true);
  expect(waiters.size).toBe(0);
  const dropped = waiters.wait(() => false, 1000);
  waiters.cancelAll();
  expect(await dropped).toBe(false);
});
