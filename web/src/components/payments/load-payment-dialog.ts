import { withStylesheets } from "@/lib/stylesheets";
import paymentStyles from "./payments.css?url";

/** The payment dialog's code and its stylesheet, split off from the pages that open it. */
export const loadPaymentDialog = withStylesheets(() => import("./payment-dialog"), paymentStyles);
