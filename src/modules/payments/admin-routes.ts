import { refundPaymentBody } from "../../contracts/admin-panel.ts";
import type { AppContext } from "../../context.ts";
import { csvResponse } from "../../http/csv.ts";
import { adminRoutes } from "../admin/auth.ts";

/** The panel's Payments screen: the ledger, its CSV and refunds. */
export function paymentAdminRoutes(ctx: AppContext) {
  return adminRoutes(ctx)
    .get("/payments", () => ctx.ledger.list())
    .get("/payments.csv", async () => csvResponse("payments", await ctx.ledger.csv()))
    .post("/payments/refund", ({ body }) => ctx.refunds.refund(body.paymentIntentId, body.amount, ctx.site.url(), body.expectedRefunded, body.reason), {
      body: refundPaymentBody,
    });
}
