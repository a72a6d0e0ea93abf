import { formatMoney } from "@contracts/money";
import { refundableAmount } from "@contracts/payments-ledger";
import { toast } from "@/hooks/use-toast";
import { getPayments, refundPayment } from "@/lib/admin-payments";
import { serverErrorMessage } from "@/lib/api-client";
import { refundFailed } from "./refund-failed";

/** Refunds the pass `username` bought, reporting the outcome in a toast. */
export async function refundPassOf(username: string): Promise<void> {
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
    toast(refundFailed(username, serverErrorMessage(error)));
  }
}
