import { KeyIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/empty-state";

/** A test page that issues a test code and pre-fills it. */
export function TestAccessPage() {
  return (
    <div className="page page-narrow">
      <div className="page-intro">
        <p className="eyebrow">Testing</p>
        <h1 className="display page-title">Test Access</h1>
        <p className="page-lead">Try the stream with a generated test code before the doors open.</p>
      </div>
      <div className="card card-blood panel">
        <EmptyState icon={<KeyIcon />} title="Test codes">
          A test code is generated here when test codes are enabled on this server.
        </EmptyState>
      </div>
    </div>
  );
}
