import { describe, expect, test } from "bun:test";
import { playerMuteMessages, sendMuteToPlayer } from "./player-messages";

describe("sendMuteToPlayer", () => {
  test("posts each player format to the player's own origin", () => {
    const posted: [unknown, string][] = [];
    const frame = { contentWindow: { postMessage: (message: unknown, origin: string) => posted.push([message, origin]) } } as unknown as HTMLIFrameElement;
    sendMuteToPlayer(frame, "https://player.example.com/embed/123?autoplay=1", true);
    expect(posted.map(([, origin]) => origin)).toEqual(Array(3).fill("https://player.example.com"));
    expect(posted.map(([message]) => message)).toEqual(playerMuteMessages(true));
    expect(playerMuteMessages(false)).toContainEqual({ method: "setMuted", value: false });
    expect(playerMuteMessages(true)[0]).toBe('{"event":"command","func":"mute","args":[]}');
  });

  test("throws when there is no player to tell, so the caller can log it", () => {
    expect(() => sendMuteToPlayer(null, "https://player.example.com/x", true)).toThrow();
    const frame = { contentWindow: { postMessage: () => {} } } as unknown as HTMLIFrameElement;
    expect(() => sendMuteToPlayer(frame, "not a url", true)).toThrow();
  });
});
