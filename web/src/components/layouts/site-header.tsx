import { Link, useLocation } from "wouter";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";
import { useStoredValue } from "@/hooks/use-stored-value";
import { LOCAL_KEYS } from "@/lib/storage";

function NavLink({ href, children }: { href: string; children: string }) {
  const [location] = useLocation();
  const current = location === href;
  return (
    <Link href={href} className="site-nav-link" aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}

/** The top bar: the brand, Home always, Livestream once an access code is stored. */
export function SiteHeader() {
  const accessCode = useStoredValue(LOCAL_KEYS.accessCode);
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Link href={paths.home} className="site-brand" aria-label={`${BRAND} home`}>
          <span className="site-brand-mark" aria-hidden="true" />
          <span className="site-brand-name">{BRAND}</span>
        </Link>
        <nav aria-label="Main">
          <ul className="site-nav">
            <li>
              <NavLink href={paths.home}>Home</NavLink>
            </li>
            {accessCode ? (
              <li>
                <NavLink href={paths.livestream}>Livestream</NavLink>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </header>
  );
}
