import { FAILED_ATTEMPTS_BEFORE_ERROR, type ConnectionStatus } from "@/lib/chat-socket";

export const CONNECTION_ERROR = "Connection error. Please reload the page.";

/** The chat has failed to connect too many times in a row to keep quiet about it. */
export function connectionFailing(status: ConnectionStatus): boolean {
  return status.state !== "open" && status.attempt >= FAILED_ATTEMPTS_BEFORE_ERROR;
}

/**
 * Follows the connection status: calls `show` once per streak of failed attempts, and dismisses what it
 * showed when the chat is open again.
 */
export function connectionErrorNotice(show: () => { dismiss: () => void }): (status: ConnectionStatus) => void {
  let shown: { dismiss: () => void } | null = null;
  return (status) => {
    if (status.state === "open") {
      shown?.dismiss();
      shown = null;
    } else if (!shown && connectionFailing(status)) {
      shown = show();
    }
  };
}
