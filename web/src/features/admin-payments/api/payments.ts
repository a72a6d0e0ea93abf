import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { PaymentRecord } from "@contracts/payments-ledger";
import { adminPaymentsQueryKey, getPayments, refundPayment } from "@/lib/admin-payments";
import { serverMessageOr } from "@/lib/query-client";

export const PAYMENTS_CSV_URL = "/api/admin/payments.csv";

export function paymentsQueryOptions() {
  return queryOptions({ queryKey: adminPaymentsQueryKey, queryFn: getPayments });
}

/** Why a refund was refused, in its toast and under the form. */
export const refusalMessage = serverMessageOr("Failed to refund the payment.");

export function usePayments() {
  return useQuery(paymentsQueryOptions());
}

/**
 * Refunds through the server; the list takes the refunded row, and the codes and stats it touched reload.
 * A refusal reloads the list, so a payment that changed meanwhile shows how it stands now.
 */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    meta: { errorToast: refusalMessage },
    onSuccess: ({ payment }) => {
      queryClient.setQueryData<PaymentRecord[]>(adminPaymentsQueryKey, (old) => old?.map((p) => (p.paymentIntentId === payment.paymentIntentId ? payment : p)));
      void queryClient.invalidateQueries({ queryKey: ["admin"], predicate: (q) => q.queryKey[1] !== "payments" });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: adminPaymentsQueryKey }),
  });
}
