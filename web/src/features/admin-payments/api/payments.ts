import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PaymentRecord, RefundOutcome, RefundPaymentBody } from "@contracts/payments-ledger";
import { api } from "@/lib/api-client";

export const PAYMENTS_CSV_URL = "/api/admin/payments.csv";

const paymentsQueryKey = ["admin", "payments"] as const;

export function getPayments(): Promise<PaymentRecord[]> {
  return api.get<PaymentRecord[]>("/api/admin/payments");
}

export function paymentsQueryOptions() {
  return queryOptions({ queryKey: paymentsQueryKey, queryFn: getPayments });
}

export function usePayments() {
  return useQuery(paymentsQueryOptions());
}

export function refundPayment(body: RefundPaymentBody): Promise<RefundOutcome> {
  return api.post<RefundOutcome>("/api/admin/payments/refund", body);
}

/** Refunds through the server; the list takes the refunded row, and the codes and stats it touched reload. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    onSuccess: ({ payment }) => {
      queryClient.setQueryData<PaymentRecord[]>(paymentsQueryKey, (old) => old?.map((p) => (p.paymentIntentId === payment.paymentIntentId ? payment : p)));
      void queryClient.invalidateQueries({ queryKey: ["admin"], predicate: (q) => q.queryKey[1] !== "payments" });
    },
  });
}
