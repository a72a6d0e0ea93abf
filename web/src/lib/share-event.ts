/** How sharing the event's link went: the system's share sheet, the clipboard, or neither. */
export type ShareOutcome = "shared" | "copied" | "cancelled" | "failed";

interface ShareTarget {
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data: ShareData) => boolean;
  clipboard?: { writeText(text: string): Promise<void> };
}

/**
 * Shares the event's link: the Web Share API where the device has one (phones), else onto the clipboard.
 * Closing the share sheet is "cancelled", not a failure.
 */
export async function shareEventLink(title: string, url: string, target: ShareTarget = navigator): Promise<ShareOutcome> {
  const data: ShareData = { title, text: title, url };
  if (typeof target.share === "function" && (target.canShare?.(data) ?? true)) {
    try {
      await target.share(data);
      return "shared";
    } catch (error) {
      if ((error as { name?: string }).name === "AbortError") return "cancelled";
    }
  }
  try {
    if (!target.clipboard) return "failed";
    await target.clipboard.writeText(url);
    return "copied";
  } catch {
    return "failed";
  }
}
