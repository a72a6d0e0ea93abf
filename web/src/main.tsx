import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/app/app";
import { registerFonts } from "@/lib/fonts";
import { afterLargestPaint } from "@/lib/idle";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/ui.css";

// The display fonts come after the largest paint; their metric-matched stand-ins (theme.css) draw the text until then.
afterLargestPaint(registerFonts);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
