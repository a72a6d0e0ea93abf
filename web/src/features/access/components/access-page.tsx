import { LockIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/empty-state";

/** Where a viewer enters their access code, username and e-mail. */
export function AccessPage() {
  return (
    <div className="page page-narrow">
      <div className="page-intro">
        <p className="eyebrow">Viewers only</p>
        <h1 className="display page-title">Enter The Nightmare</h1>
        <p className="page-lead">Your access code opens the stream on one device. Choose the name the others will see in the chat.</p>
      </div>
      <div className="card card-blood panel">
        <EmptyState icon={<LockIcon />} title="Have your access code ready">
          You received it on screen after your purchase and by e-mail.
        </EmptyState>
      </div>
    </div>
  );
}
