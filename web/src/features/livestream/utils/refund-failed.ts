import type { ToastInput } from "@/hooks/use-toast";

/** The toast of a pass that could not be refunded: the server's reason where it gave one. */
export function refundFailed(username: string, reason?: string | null): ToastInput {
  return { variant: "destructive", title: "Refund Failed", description: reason ?? `The pass of ${username} could not be refunded.` };
}
