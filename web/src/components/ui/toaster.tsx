import { createPortal } from "react-dom";
import { useToast } from "@/hooks/use-toast";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "@/components/ui/toast";

/**
 * Renders the toast store; mounted once at the root of the app. The viewport lives on the body, beside
 * the dialogs' portals rather than inside the app's own stacking layer, so a toast shown while a dialog
 * is open (its refusal, say) is above the dialog's dimmed backdrop, not under it.
 */
export function Toaster() {
  const { toasts } = useToast();
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
      {createPortal(<ToastViewport />, document.body)}
    </ToastProvider>
  );
}
