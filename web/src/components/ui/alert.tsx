import type { ReactNode } from "react";
import { AlertIcon } from "@/components/ui/site-icons";

/** An inline notice; "error" ones are announced at once. */
export function Alert({ variant = "info", title, children }: { variant?: "info" | "error"; title?: string; children: ReactNode }) {
  return (
    <div className={variant === "error" ? "alert alert-error" : "alert"} role={variant === "error" ? "alert" : "status"}>
      <AlertIcon />
      <div>
        {title ? <p className="alert-title">{title}</p> : null}
        <p>{children}</p>
      </div>
    </div>
  );
}
