import { toast } from "@/hooks/use-toast";
import { importFresh } from "@/lib/app-version";
import { refundFailed } from "../utils/refund-failed";

/** Refunds the pass `username` bought (the admin's payment calls are fetched when first used), in a toast. */
const refundPassOf = (username: string) =>
  importFresh(() => import("../utils/refund-pass")).then(
    (m) => m.refundPassOf(username),
    () => toast(refundFailed(username)),
  );

/**
 * For an admin moderating the chat: ban a viewer and refund their pass in one step, each step reported
 * in a toast. Null for anyone else (a MOD- code moderates but cannot refund), so the menu leaves it out.
 * `isAdmin` comes from the stream page's access check (GET /api/me): no admin-only call is made to find out.
 */
export function useBanAndRefund(isAdmin: boolean, ban: (username: string) => boolean): ((username: string) => void) | null {
  if (!isAdmin) return null;
  return (username) => {
    if (!ban(username)) {
      toast({ variant: "destructive", title: "Not Connected", description: `${username} was not banned: the chat is not connected.` });
      return;
    }
    toast({ title: "User Banned", description: `${username} is banned from the chat. Refunding their pass…` });
    void refundPassOf(username);
  };
}
