import { expect, test } from "bun:test";
import { LastingFailure } from "./lasting-failure.ts";
import type { Logger } from "./logger.ts";

function setup(quietMs?: number) {
  const lines: string[] = [];
  let clock = 0;
  const log: Logger = { info: (m) => lines.push(`info: ${m}`), warn: (m) => lines.push(`warn: ${m}`), error: (m) => lines.push(`error: ${m}`) };
  const failure = new LastingFailure(log, "queue not read", "queue read again", { quietMs, now: () => clock });
  return { lines, failure, tick: (ms: number) => (clock += ms) };
}

test("a failure on every tick is said once when it starts and once when it is over", () => {
  const { lines, failure, tick } = setup();
  failure.succeeded();
  for (let i = 0; i < 50; i++) {
    failure.failed(new Error("Connection closed\nat somewhere"));
    tick(1000);
  }
  expect(failure.failing).toBe(true);
  failure.succeeded();
  failure.succeeded();
  expect(lines).toEqual(["warn: queue not read: Connection closed", "info: queue read again after 50 s"]);
  failure.failed("refused");
  expect(lines.at(-1)).toBe("warn: queue not read: refused");
});

test("told of failures only, it says one again after a quiet spell, with how many went unsaid", () => {
  const { lines, failure, tick } = setup(30_000);
  failure.failed(new Error("Failed to connect"));
  tick(10_000);
  failure.failed(new Error("Failed to connect"));
  tick(10_000);
  failure.failed(new Error("Failed to connect"));
  expect(lines).toEqual(["warn: queue not read: Failed to connect"]);
  tick(30_000);
  failure.failed(new Error("Connection closed"));
  expect(lines).toEqual(["warn: queue not read: Failed to connect", "warn: queue not read: Connection closed (2 more since it was last said)"]);
});
