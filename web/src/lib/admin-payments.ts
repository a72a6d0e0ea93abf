import type { PaymentRecord, RefundOutcome, RefundPaymentBody } from "@contracts/payments-ledger";
import { api } from "@/lib/api-client";

/** The payments ledger calls, shared by the Payments screen and an admin's ban-and-refund in the chat. */
export const adminPaymentsQueryKey = ["admin", "payments"] as const;

export function getPayments(): Promise<PaymentRecord[]> {
  return api.get<PaymentRecord[]>("/api/admin/payments");
}

export function refundPayment(body: RefundPaymentBody): Promise<RefundOutcome> {
  return api.post<RefundOutcome>("/api/admin/payments/refund", body);
}
