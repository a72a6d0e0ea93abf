import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useToast } from "@/hooks/use-toast";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "@/components/ui/toast";
import { chooseToastPlace, type ToastPlace } from "@/components/ui/toast-placement";

/** How often an open toast looks again at what it covers (a dialog opened, the chat grew, a page loaded). */
const RECHECK_MS = 400;

/** Keeps the open toast where it covers no control (see toast-placement.ts). */
function useToastPlace(open: boolean, viewport: HTMLOListElement | null, toastKey: string | undefined): ToastPlace | null {
  const [place, setPlace] = useState<ToastPlace | null>(null);
  const current = useRef<string | null>(null);

  const measure = useCallback(
    (evenIfInUse: boolean) => {
      const toast = viewport?.querySelector<HTMLElement>("li.toast");
      if (!viewport || !toast) return;
      // Not moved from under the pointer or the keyboard while the viewer is closing or reading it.
      if (!evenIfInUse && (viewport.matches(":hover") || viewport.contains(document.activeElement))) return;
      const next = chooseToastPlace(viewport, toast.offsetHeight, current.current);
      if (next.name === current.current) return;
      current.current = next.name;
      setPlace(next);
    },
    [viewport],
  );

  // A new toast is placed before it is painted; one placed before keeps its place if that is still clear.
  useLayoutEffect(() => {
    if (open) measure(true);
  }, [open, toastKey, measure]);

  useEffect(() => {
    if (!open) return;
    let frame = 0;
    const soon = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => measure(false));
    };
    // At once, and again after the next frame: a page may show other controls for the new width (a menu
    // button) only once it has rendered again.
    const onResize = () => {
      measure(true);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => measure(true));
    };
    const timer = setInterval(soon, RECHECK_MS);
    window.addEventListener("scroll", soon, { capture: true, passive: true });
    window.addEventListener("resize", onResize);
    return () => {
      cancelAnimationFrame(frame);
      clearInterval(timer);
      window.removeEventListener("scroll", soon, { capture: true });
      window.removeEventListener("resize", onResize);
    };
  }, [open, measure]);

  return place;
}

/**
 * Renders the toast store; mounted once at the root of the app. The viewport lives on the body, beside
 * the dialogs' portals rather than inside the app's own stacking layer, so a toast shown while a dialog
 * is open (its refusal, say) is above the dialog's dimmed backdrop, not under it.
 */
export function Toaster() {
  const { toasts } = useToast();
  const [viewport, setViewport] = useState<HTMLOListElement | null>(null);
  const shown = toasts.find((t) => t.open);
  const place = useToastPlace(Boolean(shown), viewport, shown?.id);
  const style = place ? { top: "auto", bottom: "auto", left: "auto", right: "auto", ...place.style } : undefined;
  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, variant, ...props }) => (
        <Toast key={id} variant={variant} {...props}>
          <div className="toast-body">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      {createPortal(<ToastViewport ref={setViewport} style={style} data-place={place?.name} />, document.body)}
    </ToastProvider>
  );
}
