import { Suspense } from "react";
import { Route, Switch } from "wouter";
import { ShellLayout } from "@/components/layouts/shell-layout";
import { PageLoader } from "@/components/ui/page-loader";
import { paths } from "@/config/paths";
import { HomePage } from "@/features/home/components/home-page";
import { NotFoundPage } from "@/features/not-found/components/not-found-page";
import { importFresh } from "@/lib/app-version";
import { withQueryCache } from "@/lib/query-cache";
import { withStylesheets } from "@/lib/stylesheets";
import accessStyles from "@/features/access/components/access.css?url";
import checkoutSuccessStyles from "@/features/checkout-success/components/checkout-success.css?url";
import testAccessStyles from "@/features/test-access/components/test-access.css?url";

// The access pages carry the form and fingerprint code; the landing page stays light without them.
const CheckoutSuccessPage = withQueryCache(() =>
  importFresh(withStylesheets(() => import("@/features/checkout-success/components/checkout-success-page"), checkoutSuccessStyles)).then((m) => m.CheckoutSuccessPage),
);
const AccessPage = withQueryCache(() => importFresh(withStylesheets(() => import("@/features/access/components/access-page"), accessStyles)).then((m) => m.AccessPage));
const TestAccessPage = withQueryCache(() =>
  importFresh(withStylesheets(() => import("@/features/test-access/components/test-access-page"), testAccessStyles)).then((m) => m.TestAccessPage),
);

/**
 * The public site in its frame (header, footer): the landing page and the pages around the purchase. Split
 * off the app's entry, which the stream screen shares, and named in the HTML of the pages that show it
 * (scripts/web-build-options.ts), so it arrives with the entry and the landing page's first paint is whole.
 */
export function SitePages() {
  return (
    <ShellLayout>
      <Suspense fallback={<PageLoader />}>
        <Switch>
          <Route path={paths.home} component={HomePage} />
          <Route path={paths.checkoutSuccess} component={CheckoutSuccessPage} />
          <Route path={paths.access} component={AccessPage} />
          <Route path={paths.testAccess} component={TestAccessPage} />
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </ShellLayout>
  );
}
