import { useEffect, type ReactNode } from "react";
import { useLocation } from "wouter";
import { paths } from "@/config/paths";
import { useStoredValue } from "@/hooks/use-stored-value";
import { toast } from "@/hooks/use-toast";
import { ACCESS_REQUIRED } from "@/lib/access-verdicts";
import { loopRecentlyStopped } from "@/lib/navigation-guard";
import { LOCAL_KEYS } from "@/lib/storage";

/** Sends the viewer to /access with 'Access Required', unless the loop guard has just taken over and said why. */
function SendToAccess() {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (!loopRecentlyStopped()) toast({ variant: "destructive", ...ACCESS_REQUIRED });
    navigate(paths.access, { replace: true });
  }, [navigate]);
  return null;
}

/** Renders its children only when an access code is stored; otherwise sends the viewer to /access. */
export function RequireAccessCode({ children }: { children: ReactNode }) {
  const accessCode = useStoredValue(LOCAL_KEYS.accessCode);
  if (!accessCode) return <SendToAccess />;
  return <>{children}</>;
}
