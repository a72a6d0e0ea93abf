import { Link } from "wouter";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Alert } from "@/components/ui/alert";
import { SkullIcon } from "@/components/ui/icons";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import "./design.css";

const SWATCHES = [
  { name: "Void", token: "--bg" },
  { name: "Crypt", token: "--surface" },
  { name: "Coffin", token: "--surface-3" },
  { name: "Old blood", token: "--blood-700" },
  { name: "Blood", token: "--blood-600" },
  { name: "Fresh blood", token: "--blood-500" },
  { name: "Wound", token: "--blood-300" },
  { name: "Bone", token: "--bone" },
];

/** The design page: the site's palette, type and components side by side. */
export function DesignPage() {
  return (
    <main className="page design">
      <header className="page-intro">
        <Link href={paths.home} className="design-brand">
          {BRAND}
        </Link>
        <h1 className="display page-title">Design</h1>
        <p className="page-lead">The colours, type and parts every screen of the event is built from.</p>
      </header>

      <section className="design-section" aria-labelledby="design-colours">
        <h2 id="design-colours" className="design-heading">
          Colours
        </h2>
        <ul className="design-swatches">
          {SWATCHES.map((s) => (
            <li key={s.token} className="design-swatch">
              <span className="design-swatch-chip" style={{ background: `var(${s.token})` }} />
              <span className="design-swatch-name">{s.name}</span>
              <code className="design-swatch-token">{s.token}</code>
            </li>
          ))}
        </ul>
      </section>

      <section className="design-section" aria-labelledby="design-type">
        <h2 id="design-type" className="design-heading">
          Type
        </h2>
        <div className="card panel design-type">
          <p className="display design-type-display">Enter The Nightmare</p>
          <p className="eyebrow">Special Elite · for labels and small captions</p>
          <p>Body text uses the system font so it stays sharp and readable on every phone.</p>
        </div>
      </section>

      <section className="design-section" aria-labelledby="design-parts">
        <h2 id="design-parts" className="design-heading">
          Parts
        </h2>
        <div className="design-grid">
          <div className="card panel design-stack">
            <button type="button" className="btn btn-primary" onClick={() => toast({ title: "Access Granted", description: "Welcome to the darkness." })}>
              Show a toast
            </button>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => toast({ variant: "destructive", title: "Access Denied", description: "Your access code has expired or is not valid." })}
            >
              Show an error toast
            </button>
            <button type="button" className="btn">
              Secondary
            </button>
            <button type="button" className="btn btn-primary" disabled>
              Disabled
            </button>
          </div>
          <form className="card panel form" onSubmit={(e) => e.preventDefault()}>
            <FormField label="Chat username" placeholder="Your name in the chat" autoComplete="off" />
            <FormField label="Access code" placeholder="SKP-XXXXXXXX" error="Access code is required" autoComplete="off" />
            <Alert>Each access code works on one device only.</Alert>
          </form>
          <div className="card panel">
            <EmptyState icon={<SkullIcon />} title="Nothing here yet">
              Empty lists look like this.
            </EmptyState>
          </div>
        </div>
      </section>
    </main>
  );
}
