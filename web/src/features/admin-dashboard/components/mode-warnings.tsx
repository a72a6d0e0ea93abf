import type { AdminStats } from "@contracts/admin-panel";
import { AlertIcon } from "@/components/ui/site-icons";

/** Banners for a server that is not taking real payments or not sending real e-mail. */
export function ModeWarnings({ paymentMode, mailMode }: Pick<AdminStats, "paymentMode" | "mailMode">) {
  if (paymentMode !== "demo" && mailMode !== "outbox") return null;
  return (
    <div className="mode-warnings">
      {paymentMode === "demo" ? (
        <div className="alert alert-warning" data-testid="warning-demo-payments">
          <AlertIcon />
          <div>
            <p className="alert-title">Demo mode: no real payments</p>
            <p>
              Buyers pay with the demo test card and no money is taken. Start the server with <code>--stripe-secret-key</code> and <code>--stripe-publishable-key</code> to sell
              real passes.
            </p>
          </div>
        </div>
      ) : null}
      {mailMode === "outbox" ? (
        <div className="alert alert-warning" data-testid="warning-no-smtp">
          <AlertIcon />
          <div>
            <p className="alert-title">No SMTP server: e-mail is not delivered</p>
            <p>
              Access code e-mails are written to the outbox in the data directory instead of being sent. Start the server with <code>--smtp-url</code> to deliver them.
            </p>
          </div>
        </div>
      ) : null}
    </div>
  );
}
