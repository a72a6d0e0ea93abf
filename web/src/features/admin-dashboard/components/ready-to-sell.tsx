import { Link } from "wouter";
import type { ReadyItem, ReadyItemKey } from "@contracts/ready-to-sell";
import { CheckIcon, ScrollIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { paths } from "@/config/paths";
import { useCan } from "@/lib/admin-auth";
import { useReadyToSell } from "../api/get-ready-to-sell";
import { DashPanel } from "./dash-panel";

/** Where each open item is fixed: Settings for the organiser's details and the stream, the site for a purchase. */
const FIX: Partial<Record<ReadyItemKey, { href: string; label: string; settings?: boolean }>> = {
  organizer: { href: paths.admin.settings, label: "Open Settings", settings: true },
  privacy: { href: paths.admin.settings, label: "Open Settings", settings: true },
  terms: { href: paths.admin.settings, label: "Open Settings", settings: true },
  stream: { href: paths.admin.settings, label: "Open Settings", settings: true },
  testPurchase: { href: paths.home, label: "Open the site" },
};

function ReadyLine({ item, canEditSettings }: { item: ReadyItem; canEditSettings: boolean }) {
  const fix = item.done ? undefined : FIX[item.key];
  return (
    <li className={`dash-ready-item${item.done ? " dash-ready-item-done" : ""}`} data-key={item.key}>
      <span className="dash-ready-mark" aria-hidden="true">
        {item.done ? <CheckIcon /> : null}
      </span>
      <div className="dash-ready-text">
        <span className="dash-ready-label">
          {item.label}
          <span className="sr-only">{item.done ? " (done)" : " (to do)"}</span>
        </span>
        <span className="dash-ready-detail">{item.detail}</span>
      </div>
      {fix && (!fix.settings || canEditSettings) ? (
        fix.href === paths.home ? (
          <a href={fix.href} target="_blank" rel="noopener" className="text-link dash-ready-fix">
            {fix.label}
          </a>
        ) : (
          <Link href={fix.href} className="text-link dash-ready-fix">
            {fix.label}
          </Link>
        )
      ) : null}
    </li>
  );
}

/** "Ready to sell": what a buyer meets before the first sale, ticked as it is set, and why BUY NOW is closed while it is. */
export function ReadyToSellPanel() {
  const ready = useReadyToSell();
  const canEditSettings = useCan("settings");
  if (!ready.data) return null;
  const { items, closedReason } = ready.data;
  const open = items.filter((i) => !i.done).length;
  return (
    <section aria-label="Ready to sell" data-testid="dashboard-ready-to-sell">
      <DashPanel
        icon={<ScrollIcon />}
        title="Ready to sell"
        aside={<span className={`badge${open === 0 ? " dash-badge-ready" : ""}`}>{open === 0 ? "All set" : `${items.length - open} of ${items.length} done`}</span>}
      >
        {closedReason ? (
          <div className="alert alert-error" role="status">
            <AlertIcon />
            <div>
              <p className="alert-title">Passes are not on sale</p>
              <p>{closedReason}</p>
            </div>
          </div>
        ) : null}
        <ul className="dash-ready-list">
          {items.map((item) => (
            <ReadyLine key={item.key} item={item} canEditSettings={canEditSettings} />
          ))}
        </ul>
      </DashPanel>
    </section>
  );
}
