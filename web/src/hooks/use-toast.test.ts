import { describe, expect, test } from "bun:test";
import { reducer, TOAST_LIMIT, TOAST_REMOVE_DELAY, type ToasterToast } from "./use-toast";

const make = (id: string): ToasterToast => ({ id, open: true, title: `toast ${id}`, onOpenChange: () => {} });

describe("toast store", () => {
  test("shows at most one toast: a new one replaces the last", () => {
    expect(TOAST_LIMIT).toBe(1);
    const one = reducer({ toasts: [] }, { type: "ADD", toast: make("1") });
    const two = reducer(one, { type: "ADD", toast: make("2") });
    expect(two.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  test("a dismissed toast closes and is removed only after the long delay", () => {
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    const shown = reducer({ toasts: [] }, { type: "ADD", toast: make("7") });
    const dismissed = reducer(shown, { type: "DISMISS", id: "7" });
    expect(dismissed.toasts).toHaveLength(1);
    expect(dismissed.toasts[0]?.open).toBe(false);
    expect(reducer(dismissed, { type: "REMOVE", id: "7" }).toasts).toEqual([]);
  });

  test("an update changes the toast in place", () => {
    const shown = reducer({ toasts: [] }, { type: "ADD", toast: make("3") });
    const updated = reducer(shown, { type: "UPDATE", toast: { id: "3", description: "more" } });
    expect(updated.toasts[0]?.description).toBe("more");
    expect(updated.toasts[0]?.title).toBe("toast 3");
  });
});
