import { useEffect, useState, type ReactNode } from "react";

/** At most one toast is shown; a dismissed toast is dropped from the store after this long. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds on screen; Radix's default (5000) when omitted. */
  duration?: number;
}

export interface ToasterToast extends ToastInput {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

interface State {
  toasts: ToasterToast[];
}

type Action =
  { type: "ADD"; toast: ToasterToast } | { type: "UPDATE"; toast: Partial<ToasterToast> & { id: string } } | { type: "DISMISS"; id?: string } | { type: "REMOVE"; id?: string };

let count = 0;
function nextId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return String(count);
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string): void {
  if (removeTimeouts.has(id)) return;
  removeTimeouts.set(
    id,
    setTimeout(() => {
      removeTimeouts.delete(id);
      dispatch({ type: "REMOVE", id });
    }, TOAST_REMOVE_DELAY),
  );
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case "ADD":
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "UPDATE":
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case "DISMISS": {
      for (const t of state.toasts) if (action.id === undefined || t.id === action.id) scheduleRemoval(t.id);
      return { toasts: state.toasts.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t)) };
    }
    case "REMOVE":
      return { toasts: action.id === undefined ? [] : state.toasts.filter((t) => t.id !== action.id) };
  }
}

const listeners = new Set<(state: State) => void>();
let memoryState: State = { toasts: [] };

function dispatch(action: Action): void {
  memoryState = reducer(memoryState, action);
  for (const listener of listeners) listener(memoryState);
}

/** Shows a toast from anywhere (components, mutation callbacks). */
export function toast(input: ToastInput) {
  const id = nextId();
  const dismiss = () => dispatch({ type: "DISMISS", id });
  dispatch({
    type: "ADD",
    toast: {
      ...input,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return {
    id,
    dismiss,
    update: (next: ToastInput) => dispatch({ type: "UPDATE", toast: { ...next, id } }),
  };
}

/** The destructive toast titled "Error": a failed load or action, in the words the screen gives it. */
export function toastError(description: string) {
  return toast({ variant: "destructive", title: "Error", description });
}

/** A dialog whose code could not be fetched (the connection dropped): it stays shut, and the next try fetches it again. */
export function toastCouldNotOpen(form: "payment" | "donation") {
  return toast({ variant: "destructive", title: "Could Not Open", description: `The ${form} form could not be loaded. Check your connection, then try again.` });
}

export function useToast() {
  const [state, setState] = useState<State>(memoryState);
  useEffect(() => {
    listeners.add(setState);
    // A toast raised by an effect that ran before this one (a page sending the viewer away on load) is not missed.
    setState(memoryState);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return {
    ...state,
    toast,
    dismiss: (id?: string) => dispatch(id === undefined ? { type: "DISMISS" } : { type: "DISMISS", id }),
  };
}
