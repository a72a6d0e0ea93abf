import type { ReactNode } from "react";
import { SiteFooter } from "@/components/layouts/site-footer";
import { SiteHeader } from "@/components/layouts/site-header";

/** The public site frame: top navigation, the page, the footer. */
export function ShellLayout({ children }: { children: ReactNode }) {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
