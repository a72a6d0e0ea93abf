import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/app/app";
import "@/app/first-paint";
import { firstScreen } from "@/app/router";
import { registerFonts } from "@/lib/fonts";
import { afterLargestPaint } from "@/lib/idle";
// The countdown (the landing page and the stream screen before it starts) and the not-found card (the site's
// and the panel's) are styled on every page; the rest of the site's frame comes with its code (app/site-pages.css).
import "./components/ui/countdown.css";
import "./features/not-found/components/not-found.css";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/ui.css";

// The display fonts come after the largest paint; their metric-matched stand-ins (theme.css) draw the text until then.
afterLargestPaint(registerFonts);

// The first render is a transition: React then builds the page in slices of a few milliseconds, giving the
// main thread back between them, instead of one long task a slow phone cannot answer a tap during.
// A page whose screen comes with the entry (named in its HTML) waits for it, so its first paint is the page
// itself rather than a loader: at worst as long as that screen's files take, which arrive alongside.
const root = createRoot(document.getElementById("root")!);
void firstScreen(window.location.pathname).then(() =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);
