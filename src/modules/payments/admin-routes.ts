import { refundPaymentBody } from "../../contracts/admin-panel.ts";
import type { AppContext } from "../../context.ts";
import { csvResponse } from "../../http/csv.ts";
import { adminRoutes, requireRecentProof } from "../admin/auth.ts";
import { paymentState } from "./refunds.ts";

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
      async ({ body, admin, session, clientIp, receivedAt }) => {
        requireRecentProof(session);
        const { outcome, before } = await ctx.refunds.refund(body.paymentIntentId, body.amount, ctx.site.url(), body.expectedRefunded, body.reason, receivedAt);
        const after = paymentState(outcome.payment);
        const refunded = after.refundedAmount - before.refundedAmount;
        await ctx.audit.record(admin, "payment.refund", body.paymentIntentId, before, { ...after, refunded, reason: body.reason ?? null }, clientIp);
        return outcome;
      },
      { body: refundPaymentBody },
    );
}
