import type { ReactNode } from "react";
import { ShieldIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";

/** An inline notice; "error" ones are announced at once; "good" ones say a protection is in place (a shield, not a warning). */
export function Alert({ variant = "info", title, children }: { variant?: "info" | "error" | "good"; title?: string; children: ReactNode }) {
  return (
    <div className={variant === "error" ? "alert alert-error" : variant === "good" ? "alert alert-good" : "alert"} role={variant === "error" ? "alert" : "status"}>
      {variant === "good" ? <ShieldIcon /> : <AlertIcon />}
      <div>
        {title ? <p className="alert-title">{title}</p> : null}
        <p>{children}</p>
      </div>
    </div>
  );
}
