import { Component, type ErrorInfo, type ReactNode } from "react";
import { AlertIcon, RefreshIcon } from "@/components/ui/site-icons";
import "./app-update.css";

interface State {
  failed: boolean;
}

/**
 * The last line: a part of the page that fails to load or render (its file unreachable, say) shows this
 * card with a way back, instead of leaving the screen blank.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("The page failed to render", error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="notice-page app-error" role="alert">
        <div className="card card-blood notice-card">
          <div className="notice-head">
            <AlertIcon width={28} height={28} aria-hidden="true" />
            <h1 className="notice-title">Something went wrong</h1>
          </div>
          <p className="notice-text">This page could not be loaded. Check your connection, then try again.</p>
          <div className="app-error-actions">
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              <RefreshIcon width={18} height={18} aria-hidden="true" />
              Try again
            </button>
            <a className="btn btn-outline" href="/">
              Home page
            </a>
          </div>
        </div>
      </div>
    );
  }
}
