import { Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { Route, Switch, useLocation } from "wouter";
import { PageLoader } from "@/components/ui/page-loader";
import { isAdminPath, paths } from "@/config/paths";
import { lazyPart, loadPart } from "@/hooks/use-lazy-part";
import { useTopOnNewPage } from "@/hooks/use-top-on-new-page";
import { importFresh } from "@/lib/app-version";
import { withQueryCache } from "@/lib/query-cache";
import { withStylesheets } from "@/lib/stylesheets";
import adminStyles from "@/app/admin-panel.css?url";
import designStyles from "@/app/routes/design.css?url";
import sitePagesStyles from "@/app/site-pages.css?url";
import livestreamStyles from "@/features/livestream/components/livestream-page.css?url";
import streamLayoutStyles from "@/features/livestream/components/stream-layout.css?url";

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
// The public site (its frame, the landing page, the pages around the purchase) is split off too: the stream
// screen goes without it. A page of the site waits for it before its first paint (`firstScreen`); a fetch that
// fails shows the loader and is tried again every few seconds.
const loadSitePages = () => importFresh(withStylesheets(() => import("@/app/site-pages"), sitePagesStyles));
const SitePages = lazyPart(loadSitePages, (m) => m.SitePages, <PageLoader />);

/** The screens outside the public site's frame, each on a path of its own (matched as the router does: any case, a trailing slash allowed). */
const OWN_SCREENS = new Set<string>([paths.livestream, paths.livestreamNew, paths.livestreamFixed, paths.design, paths.layoutTest]);

/** How long a page of the site holds its first paint for the site's code: on a slow connection the loader shows after that. */
const FIRST_SCREEN_WAIT_MS = 2500;

/**
 * What the page at `path` waits for before its first paint: the public site's code, for one of its pages, for
 * at most a few seconds (never rejects: a failed fetch shows the loader, which tries again).
 */
export function firstScreen(path: string): Promise<unknown> {
  if (isAdminPath(path) || OWN_SCREENS.has(path.replace(/\/$/, "").toLowerCase())) return Promise.resolve();
  return Promise.race([loadPart(loadSitePages).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]);
}

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
  useTopOnNewPage();
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
        <SitePages />
      </Route>
    </Switch>
  );
}
