import type { ReactNode } from "react";
import { Link } from "wouter";
import { LockIcon } from "@/components/ui/icons";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";

/** The centred card the admin sign-in and first-run pages sit in. */
export function AuthPanel({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-column">
        <Link href={paths.home} className="auth-brand">
          {BRAND}
        </Link>
        <section className="card card-blood auth-card" aria-labelledby="auth-title">
          <div className="auth-head">
            <span className="auth-icon" aria-hidden="true">
              <LockIcon />
            </span>
            <h1 id="auth-title" className="auth-title">
              {title}
            </h1>
            <p className="auth-subtitle">{subtitle}</p>
          </div>
          {children}
        </section>
        <Link href={paths.home} className="auth-back">
          ← Back to the event
        </Link>
      </div>
    </main>
  );
}
