import { useEffect, useState, useSyncExternalStore } from "react";
import { CloseIcon, RefreshIcon } from "@/components/ui/site-icons";
import { toast } from "@/hooks/use-toast";
import { appVersion, HIDDEN_CHECK_AFTER_MS, updateReady } from "@/lib/app-version";
import "./app-update.css";

/**
 * Mounted once at the root. Shows a bar while the server serves a newer build than this page's, checks
 * again when a tab hidden for a while comes back, and after a reload made for an update says why.
 */
export function UpdateBar() {
  const ready = useSyncExternalStore(updateReady.subscribe, () => updateReady.value);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (appVersion.reloadedForUpdate()) {
      toast({ title: "DREADCAST was updated", description: "The page was reloaded to bring it up to date. Please try again." });
    }
    let hiddenAt: number | null = document.visibilityState === "hidden" ? Date.now() : null;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        hiddenAt ??= Date.now();
        return;
      }
      if (hiddenAt !== null && Date.now() - hiddenAt >= HIDDEN_CHECK_AFTER_MS) void appVersion.check(true);
      hiddenAt = null;
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, []);

  if (!ready || dismissed) return null;
  return (
    <div className="update-bar" role="status">
      <RefreshIcon width={18} height={18} aria-hidden="true" className="update-bar-icon" />
      <p className="update-bar-text">
        <strong>DREADCAST has been updated.</strong> <span>Reload to get the new version.</span>
      </p>
      <button type="button" className="btn btn-primary update-bar-button" onClick={() => window.location.reload()}>
        Reload
      </button>
      <button type="button" className="update-bar-close" aria-label="Not now" onClick={() => setDismissed(true)}>
        <CloseIcon width={16} height={16} />
      </button>
    </div>
  );
}
