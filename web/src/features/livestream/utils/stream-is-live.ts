import type { PublicLivestreamSettings } from "@contracts/settings";

/**
 * The stream is live: the doors open, and the server gave this viewer something to play. The stream
 * screen's own (the home page's reading of the night is lib/event-status.ts), so that the screen's first
 * load does not take that module with it.
 */
export function streamIsLive(settings: Pick<PublicLivestreamSettings, "isActive"> | undefined, playbackUrl: string | undefined): boolean {
  return !!settings?.isActive && !!playbackUrl;
}
