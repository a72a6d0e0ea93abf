/**
 * The mute messages posted to the player frame, in the formats the common embeddable players listen for:
 * YouTube's iframe API command, Vimeo's player API method and a plain one for custom players.
 */
export function playerMuteMessages(muted: boolean): unknown[] {
  return [
    JSON.stringify({ event: "command", func: muted ? "mute" : "unMute", args: [] }),
    { method: "setMuted", value: muted },
    { type: muted ? "mute" : "unmute" },
  ];
}

/** Posts the mute messages to the player at its own origin; throws when there is no player to tell. */
export function sendMuteToPlayer(frame: HTMLIFrameElement | null, embedUrl: string, muted: boolean): void {
  const target = frame?.contentWindow;
  if (!target) throw new Error("The stream player is not loaded");
  const origin = new URL(embedUrl).origin;
  for (const message of playerMuteMessages(muted)) target.postMessage(message, origin);
}
