/**
 * The mute messages posted to the player frame, in the formats the common embeddable players listen for:
 * YouTube's iframe API command, Vimeo's player API method and a plain one for custom players.
 */
export function playerMuteMessages(muted: boolean): unknown[] {
  return [JSON.stringify({ event: "command", func: muted ? "mute" : "unMute", args: [] }), { method: "setMuted", value: muted }, { type: muted ? "mute" : "unmute" }];
}

/**
 * Mutes our own video directly; posts the mute messages to a player frame at its own origin. Throws when
 * there is no player to tell.
 */
export function sendMuteToPlayer(player: HTMLIFrameElement | HTMLVideoElement | null, embedUrl: string, muted: boolean): void {
  if (player && "muted" in player) {
    player.muted = muted;
    return;
  }
  const target = player?.contentWindow;
  if (!target) throw new Error("The stream player is not loaded");
  const origin = new URL(embedUrl).origin;
  for (const message of playerMuteMessages(muted)) target.postMessage(message, origin);
}
