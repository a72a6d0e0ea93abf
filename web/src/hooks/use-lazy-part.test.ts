import { describe, expect, test } from "bun:test";
import { loadPart } from "./use-lazy-part";

describe("loadPart", () => {
  test("fetches a part once, however many ask for it at the same time or after", async () => {
    let fetched = 0;
    const load = async () => {
      fetched++;
      await Bun.sleep(5);
      return { part: "player" };
    };
    const [a, b] = await Promise.all([loadPart(load), loadPart(load)]);
    expect(a).toBe(b);
    expect(await loadPart(load)).toBe(a);
    expect(fetched).toBe(1);
  });

  test("a failed fetch is not kept: the next call fetches again, and what comes is kept", async () => {
    let fetched = 0;
    const load = async () => {
      fetched++;
      if (fetched === 1) throw new Error("connection reset");
      return { part: "tools" };
    };
    await expect(loadPart(load)).rejects.toThrow("connection reset");
    const part = await loadPart(load);
    expect(part).toEqual({ part: "tools" });
    expect(await loadPart(load)).toBe(part);
    expect(fetched).toBe(2);
  });
});
