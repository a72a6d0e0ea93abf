import { refundPaymentBody } from "../../contracts/admin-panel.ts";
import type { AppContext } from "../../context.ts";
import { csvResponse } from "../../http/csv.ts";
import { adminRoutes, requireRecentProof } from "../admin/auth.ts";

/** The panel's Payments screen: the ledger, its CSV and refunds. */
export function paymentAdminRoutes(ctx: AppContext) {
  return adminRoutes(ctx, "payments")
    .get("/payments", () => ctx.ledger.list())
    .get("/payments.csv", async () => csvResponse("payments", await ctx.ledger.csv()))
    .post(
      "/payments/refund",
      async ({ body, admin, session, clientIp }) => {
        requireRecentProof(session);
        const answer = await ctx.refunds.refund(body.paymentIntentId, body.amount, ctx.site.url(), body.expectedRefunded, body.reason);
        await ctx.audit.record(
          admin,
          "payment.refund",
          body.paymentIntentId,
          { refunded: body.expectedRefunded ?? null },
          { amount: body.amount ?? "full", reason: body.reason ?? null },
          clientIp,
        );
        return answer;
      },
      { body: refundPaymentBody },
    );
}
