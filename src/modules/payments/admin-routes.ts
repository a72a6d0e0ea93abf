import { refundPaymentBody } from "../../contracts/admin-panel.ts";
import type { AppContext } from "../../context.ts";
import { csvResponse } from "../../http/csv.ts";
import type { PaymentRecord } from "../../contracts/payments-ledger.ts";
import { adminRoutes, requireRecentProof } from "../admin/auth.ts";

/** What a refund changes of a payment, for the audit log's before and after. */
const paymentState = (p: PaymentRecord) => ({ status: p.status, amount: p.amount, currency: p.currency, refundedAmount: p.refundedAmount, disputedAmount: p.disputedAmount });

/** The panel's Payments screen: the ledger, its CSV and refunds. */
export function paymentAdminRoutes(ctx: AppContext) {
  return adminRoutes(ctx, "payments")
    .get("/payments", () => ctx.ledger.list())
    .get("/payments.csv", async ({ admin, clientIp }) => {
      const csv = await ctx.ledger.csv();
      await ctx.audit.record(admin, "export.payments", "csv", null, null, clientIp);
      return csvResponse("payments", csv);
    })
    .post(
      "/payments/refund",
      async ({ body, admin, session, clientIp }) => {
        requireRecentProof(session);
        const [before] = await ctx.ledger.list(body.paymentIntentId);
        const answer = await ctx.refunds.refund(body.paymentIntentId, body.amount, ctx.site.url(), body.expectedRefunded, body.reason);
        const after = answer.payment;
        await ctx.audit.record(
          admin,
          "payment.refund",
          body.paymentIntentId,
          before ? paymentState(before) : null,
          { ...paymentState(after), refunded: after.refundedAmount - (before?.refundedAmount ?? 0), reason: body.reason ?? null },
          clientIp,
        );
        return answer;
      },
      { body: refundPaymentBody },
    );
}
