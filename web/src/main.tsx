import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/app/app";
import { registerFonts } from "@/lib/fonts";
import { afterLargestPaint } from "@/lib/idle";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/ui.css";

// The display fonts come after the largest paint; their metric-matched stand-ins (theme.css) draw the text until then.
afterLargestPaint(registerFonts);

// The first render is a transition: React then builds the page in slices of a few milliseconds, giving the
// main thread back between them, instead of one long task a slow phone cannot answer a tap during.
const root = createRoot(document.getElementById("root")!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
