import * as ToastPrimitive from "@radix-ui/react-toast";
import type { ComponentPropsWithRef, ComponentPropsWithoutRef } from "react";
import type { ToastVariant } from "@/hooks/use-toast";
import { CloseIcon } from "@/components/ui/site-icons";

/** Radix toast parts, styled for the theme. Radix defaults: 5000 ms, swipe right, threshold 50. */
export const ToastProvider = ToastPrimitive.Provider;

export function ToastViewport(props: ComponentPropsWithRef<typeof ToastPrimitive.Viewport>) {
  return <ToastPrimitive.Viewport className="toast-viewport" {...props} />;
}

export function Toast({ variant = "default", ...props }: ComponentPropsWithoutRef<typeof ToastPrimitive.Root> & { variant?: ToastVariant }) {
  return <ToastPrimitive.Root className="toast" data-variant={variant} {...props} />;
}

export function ToastTitle(props: ComponentPropsWithoutRef<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className="toast-title" {...props} />;
}

export function ToastDescription(props: ComponentPropsWithoutRef<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className="toast-description" {...props} />;
}

export function ToastClose() {
  return (
    <ToastPrimitive.Close className="toast-close" aria-label="Close">
      <CloseIcon />
    </ToastPrimitive.Close>
  );
}
