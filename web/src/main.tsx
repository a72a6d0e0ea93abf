import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/app/app";
import { registerFonts } from "@/lib/fonts";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/ui.css";

registerFonts();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
