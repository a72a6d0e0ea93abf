import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation } from "wouter";

const here = () => window.location.pathname + window.location.search;

/**
 * A new page (a link, a redirect, the code after a payment) opens at its top, not at the height the last
 * page was scrolled to; Back and Forward leave the scroll to the browser, which puts it back where it was.
 */
export function useTopOnNewPage(): void {
  const [location] = useLocation();
  // Where the last Back or Forward led (a Back that only closed a dialog leads where the page already is).
  const poppedTo = useRef<string | null>(null);
  const shown = useRef(location);
  useEffect(() => {
    const onPop = () => {
      poppedTo.current = here();
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  useLayoutEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    const popped = poppedTo.current === here();
    poppedTo.current = null;
    if (!popped) window.scrollTo(0, 0);
  }, [location]);
}
