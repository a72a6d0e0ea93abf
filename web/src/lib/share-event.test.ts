import { describe, expect, test } from "bun:test";
import { shareEventLink } from "./share-event";

const URL = "https://night.dreadcast.test/";

/** A clipboard that keeps what is written to it. */
function clipboard(fail = false) {
  const written: string[] = [];
  return { written, writeText: async (text: string) => (fail ? Promise.reject(new Error("denied")) : void written.push(text)) };
}

describe("sharing the event's link", () => {
  test("the share sheet gets the title and the link where the device has one; the clipboard is left alone", async () => {
    const shared: ShareData[] = [];
    const board = clipboard();
    expect(await shareEventLink("Hollow Farm", URL, { share: async (data) => void shared.push(data), clipboard: board })).toBe("shared");
    expect(shared).toEqual([{ title: "Hollow Farm", text: "Hollow Farm", url: URL }]);
    expect(board.written).toEqual([]);
  });

  test("closing the share sheet is no failure and copies nothing", async () => {
    const board = clipboard();
    const cancel = async () => Promise.reject(Object.assign(new Error("Share canceled"), { name: "AbortError" }));
    expect(await shareEventLink("Hollow Farm", URL, { share: cancel, clipboard: board })).toBe("cancelled");
    expect(board.written).toEqual([]);
  });

  test("without a share sheet, or when it refuses, the link goes onto the clipboard", async () => {
    const board = clipboard();
    expect(await shareEventLink("Hollow Farm", URL, { clipboard: board })).toBe("copied");
    const refuse = async () => Promise.reject(Object.assign(new Error("not allowed"), { name: "NotAllowedError" }));
    expect(await shareEventLink("Hollow Farm", URL, { share: refuse, clipboard: board })).toBe("copied");
    expect(board.written).toEqual([URL, URL]);
  });

  test("with neither, or a clipboard that refuses, it says it failed", async () => {
    expect(await shareEventLink("Hollow Farm", URL, {})).toBe("failed");
    expect(await shareEventLink("Hollow Farm", URL, { clipboard: clipboard(true) })).toBe("failed");
  });
});
