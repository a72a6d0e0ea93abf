import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { paths } from "@/config/paths";
import { useStoredValue } from "@/hooks/use-stored-value";
import { LOCAL_KEYS } from "@/lib/storage";

/** Renders its children only when an access code is stored; otherwise sends the viewer to /access. */
export function RequireAccessCode({ children }: { children: ReactNode }) {
  const accessCode = useStoredValue(LOCAL_KEYS.accessCode);
  if (!accessCode) return <Redirect to={paths.access} replace />;
  return <>{children}</>;
}
