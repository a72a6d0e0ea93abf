import { useEffect, useState, type ReactNode } from "react";
import { useLocation } from "wouter";
import { paths } from "@/config/paths";
import { useStoredValue } from "@/hooks/use-stored-value";
import { toast } from "@/hooks/use-toast";
import { ACCESS_REQUIRED } from "@/lib/access-verdicts";
import { loopRecentlyStopped } from "@/lib/navigation-guard";
import { LOCAL_KEYS } from "@/lib/storage";
import { fetchStreamIdentity } from "@/lib/stream-identity";
import { PageLoader } from "@/components/ui/page-loader";

/** Sends the viewer to /access with 'Access Required', unless the loop guard has just taken over and said why. */
function SendToAccess() {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (!loopRecentlyStopped()) toast({ variant: "destructive", ...ACCESS_REQUIRED });
    navigate(paths.access, { replace: true });
  }, [navigate]);
  return null;
}

/** No code stored: a signed-in admin watches without one (GET /api/me, answered for anyone); anyone else goes to /access. */
function AdminOrAccess({ children }: { children: ReactNode }) {
  const [verdict, setVerdict] = useState<"asking" | "admin" | "not admin">("asking");
  useEffect(() => {
    let current = true;
    void fetchStreamIdentity().then((here) => {
      if (current) setVerdict(here?.role === "admin" ? "admin" : "not admin");
    });
    return () => {
      current = false;
    };
  }, []);
  if (verdict === "asking") return <PageLoader fullScreen />;
  if (verdict === "not admin") return <SendToAccess />;
  return <>{children}</>;
}

/** Renders its children when an access code is stored, or for a signed-in admin; otherwise sends the viewer to /access. */
export function RequireAccessCode({ children }: { children: ReactNode }) {
  const accessCode = useStoredValue(LOCAL_KEYS.accessCode);
  if (!accessCode) return <AdminOrAccess>{children}</AdminOrAccess>;
  return <>{children}</>;
}
