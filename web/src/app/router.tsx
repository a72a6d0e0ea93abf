import { Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { Route, Switch, useLocation } from "wouter";
import { ShellLayout } from "@/components/layouts/shell-layout";
import { PageLoader } from "@/components/ui/page-loader";
import { isAdminPath, paths } from "@/config/paths";
import { HomePage } from "@/features/home/components/home-page";
import { NotFoundPage } from "@/features/not-found/components/not-found-page";
import { importFresh } from "@/lib/app-version";
import { withQueryCache } from "@/lib/query-cache";
import { withStylesheets } from "@/lib/stylesheets";
import adminStyles from "@/app/admin-panel.css?url";
import designStyles from "@/app/routes/design.css?url";
import accessStyles from "@/features/access/components/access.css?url";
import checkoutSuccessStyles from "@/features/checkout-success/components/checkout-success.css?url";
import livestreamStyles from "@/features/livestream/components/livestream-page.css?url";
import streamLayoutStyles from "@/features/livestream/components/stream-layout.css?url";
import testAccessStyles from "@/features/test-access/components/test-access.css?url";

// Code only some visitors need is split off: the admin panel (never downloaded by viewers) and the bare pages,
// each fetched together with its own stylesheet.
// Each is fetched with the query cache, which the landing page's first paint goes without.
const AdminRouter = withQueryCache(() => importFresh(withStylesheets(() => import("@/app/admin-router"), adminStyles)).then((m) => m.default));
// The stream screen comes with its guard (a stored code, or a signed-in admin), which the other pages do without.
const LivestreamPage = withQueryCache(() =>
  importFresh(withStylesheets(() => import("@/features/livestream/components/livestream-page"), livestreamStyles)).then((m) => m.GuardedLivestreamPage),
);
const DesignPage = withQueryCache(() => importFresh(withStylesheets(() => import("@/app/routes/design-page"), designStyles)).then((m) => m.DesignPage));
const LayoutTestPage = withQueryCache(() =>
  importFresh(withStylesheets(() => import("@/features/livestream/components/layout-test-page"), streamLayoutStyles)).then((m) => m.LayoutTestPage),
);
// The access pages carry the form and fingerprint code; the landing page stays light without them.
const CheckoutSuccessPage = withQueryCache(() =>
  importFresh(withStylesheets(() => import("@/features/checkout-success/components/checkout-success-page"), checkoutSuccessStyles)).then((m) => m.CheckoutSuccessPage),
);
const AccessPage = withQueryCache(() => importFresh(withStylesheets(() => import("@/features/access/components/access-page"), accessStyles)).then((m) => m.AccessPage));
const TestAccessPage = withQueryCache(() =>
  importFresh(withStylesheets(() => import("@/features/test-access/components/test-access-page"), testAccessStyles)).then((m) => m.TestAccessPage),
);

function Lazy({ page: Page }: { page: LazyExoticComponent<ComponentType> }) {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Page />
    </Suspense>
  );
}

function Livestream() {
  return <Lazy page={LivestreamPage} />;
}

export function AppRouter() {
  const [location] = useLocation();
  if (isAdminPath(location)) return <Lazy page={AdminRouter} />;
  return (
    <Switch>
      <Route path={paths.livestream} component={Livestream} />
      <Route path={paths.livestreamNew} component={Livestream} />
      <Route path={paths.livestreamFixed} component={Livestream} />
      <Route path={paths.design}>
        <Lazy page={DesignPage} />
      </Route>
      <Route path={paths.layoutTest}>
        <Lazy page={LayoutTestPage} />
      </Route>
      <Route>
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
      </Route>
    </Switch>
  );
}
