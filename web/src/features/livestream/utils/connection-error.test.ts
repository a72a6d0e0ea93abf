import { describe, expect, test } from "bun:test";
import { FAILED_ATTEMPTS_BEFORE_ERROR, type ConnectionStatus } from "@/lib/chat-socket";
import { connectionErrorNotice, connectionFailing } from "./connection-error";

const closed = (attempt: number): ConnectionStatus => ({ state: "closed", attempt, removedWith: null });
const connecting = (attempt: number): ConnectionStatus => ({ state: "connecting", attempt, removedWith: null });
const open: ConnectionStatus = { state: "open", attempt: 0, removedWith: null };

/** A notice that counts what it showed and dismissed. */
function recorder() {
  const log: string[] = [];
  const notice = connectionErrorNotice(() => {
    log.push("show");
    return { dismiss: () => log.push("dismiss") };
  });
  return { log, notice };
}

describe("connectionFailing", () => {
  test("only after the set number of failed attempts, and never while open", () => {
    expect(connectionFailing(closed(FAILED_ATTEMPTS_BEFORE_ERROR - 1))).toBe(false);
    expect(connectionFailing(closed(FAILED_ATTEMPTS_BEFORE_ERROR))).toBe(true);
    expect(connectionFailing(connecting(FAILED_ATTEMPTS_BEFORE_ERROR + 3))).toBe(true);
    expect(connectionFailing({ ...open, attempt: FAILED_ATTEMPTS_BEFORE_ERROR })).toBe(false);
  });
});

describe("connectionErrorNotice", () => {
  test("shows once per failure streak, however many attempts fail after it", () => {
    const { log, notice } = recorder();
    for (let attempt = 0; attempt <= FAILED_ATTEMPTS_BEFORE_ERROR + 4; attempt++) {
      notice(connecting(attempt));
      notice(closed(attempt));
    }
    expect(log).toEqual(["show"]);
  });

  test("a reconnect ends the streak: the notice is taken down, and a new streak shows it again", () => {
    const { log, notice } = recorder();
    notice(closed(FAILED_ATTEMPTS_BEFORE_ERROR));
    notice(open);
    notice(open);
    expect(log).toEqual(["show", "dismiss"]);
    notice(closed(1));
    expect(log).toEqual(["show", "dismiss"]);
    notice(closed(FAILED_ATTEMPTS_BEFORE_ERROR));
    expect(log).toEqual(["show", "dismiss", "show"]);
  });

  test("says nothing while the first attempts fail", () => {
    const { log, notice } = recorder();
    for (let attempt = 0; attempt < FAILED_ATTEMPTS_BEFORE_ERROR; attempt++) notice(closed(attempt));
    expect(log).toEqual([]);
  });
});
