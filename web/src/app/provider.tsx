import { useEffect, useState, type ReactNode } from "react";
import { AppErrorBoundary } from "@/components/app-update/app-error-boundary";
import { UpdateBar } from "@/components/app-update/update-bar";
import { lazyPart } from "@/hooks/use-lazy-part";
import { useToast } from "@/hooks/use-toast";
import { importFresh } from "@/lib/app-version";
import { whenIdle } from "@/lib/idle";
import { withStylesheets } from "@/lib/stylesheets";
import toastStyles from "@/components/ui/toast.css?url";
import { loadQueryCache } from "@/lib/query-cache";

// The toast area (Radix Toast) is not needed for the first paint: fetched when the page is idle, or at once
// for a toast raised before then, which the store keeps until the area shows it (a fetch that fails is tried
// again every few seconds, the toasts waiting meanwhile).
const fetchToaster = withStylesheets(() => import("@/components/ui/toaster"), toastStyles);

const ToastArea = lazyPart(
  () => importFresh(fetchToaster),
  (m) => m.Toaster,
);

function DeferredToaster() {
  const { toasts } = useToast();
  const [fetched, setFetched] = useState(false);
  // A page left open across an upgrade cannot fetch it ahead: it waits for its first toast, which reloads it.
  useEffect(() => {
    const fetchAhead = async () => {
      await fetchToaster();
      setFetched(true);
    };
    return whenIdle(() => void fetchAhead().catch(() => {}));
  }, []);
  const [needed, setNeeded] = useState(false);
  if (!needed && (fetched || toasts.length > 0)) setNeeded(true);
  return needed ? <ToastArea /> : null;
}

/**
 * App-wide: the toast area, the update bar, and a card for a page that fails. The query cache is fetched once
 * the page is idle, if no screen has asked for it before (web/src/lib/query-cache.tsx).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  useEffect(() => whenIdle(() => void loadQueryCache().catch(() => {})), []);
  return (
    <>
      <AppErrorBoundary>{children}</AppErrorBoundary>
      <UpdateBar />
      <DeferredToaster />
    </>
  );
}
