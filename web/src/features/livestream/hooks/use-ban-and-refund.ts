import { formatMoney } from "@contracts/money";
import { refundableAmount } from "@contracts/payments-ledger";
import { toast } from "@/hooks/use-toast";
import { getPayments, refundPayment } from "@/lib/admin-payments";
import { serverErrorMessage } from "@/lib/api-client";

/** Refunds the pass `username` bought, reporting the outcome in a toast. */
async function refundPassOf(username: string): Promise<void> {
  try {
    const wanted = username.toLowerCase();
    const pass = (await getPayments()).find((p) => p.kind === "access" && p.username?.toLowerCase() === wanted && refundableAmount(p) > 0);
    if (!pass) {
      toast({ variant: "destructive", title: "Nothing to Refund", description: `${username} has no paid pass left to refund.` });
      return;
    }
    const { payment, revokedCode } = await refundPayment({ paymentIntentId: pass.paymentIntentId, expectedRefunded: pass.refundedAmount });
    const amount = formatMoney(payment.refundedAmount, payment.currency);
    toast({ title: "Pass Refunded", description: `${amount} refunded to ${username}${revokedCode ? `; ${revokedCode} no longer works` : ""}.` });
  } catch (error) {
    toast({ variant: "destructive", title: "Refund Failed", description: serverErrorMessage(error) ?? `The pass of ${username} could not be refunded.` });
  }
}

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
