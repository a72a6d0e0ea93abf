import { useQueryClient } from "@/lib/query";
import { useEffect, type ReactNode } from "react";
import { Link, Redirect, useLocation } from "wouter";
import { ROLE_LABELS, type Capability } from "@contracts/team";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { LockIcon } from "@/components/ui/icons";
import { paths } from "@/config/paths";
import { StepUpDialog } from "@/features/admin-security/components/step-up-dialog";
import { adminAuthKeys, useAdminProfile } from "@/lib/admin-auth";
import { ADMIN_ENROL_NEEDED_EVENT } from "@/lib/api-client";

/**
 * A signed-in page of the panel, inside the AdminLayout (which has loaded the profile): a member who must
 * set up two factors first is sent to Security, and a page the role may not use says so instead of
 * loading what the server would refuse. The "Confirm it's you" dialog is mounted here, once for the panel.
 */
export function AdminPanelPage({ need, children }: { need?: Capability; children: ReactNode }) {
  const [location] = useLocation();
  const queryClient = useQueryClient();
  const profile = useAdminProfile().data;

  // A call refused until two factors are set up re-reads the profile, which then says "enrol first".
  useEffect(() => {
    const recheck = () => void queryClient.invalidateQueries({ queryKey: adminAuthKeys.profile, exact: true });
    window.addEventListener(ADMIN_ENROL_NEEDED_EVENT, recheck);
    return () => window.removeEventListener(ADMIN_ENROL_NEEDED_EVENT, recheck);
  }, [queryClient]);

  if (profile?.mustEnrol && location !== paths.admin.security) return <Redirect to={paths.admin.security} replace />;
  const allowed = !need || (profile?.capabilities.includes(need) ?? false);
  return (
    <>
      {allowed ? (
        children
      ) : (
        <>
          <AdminPageHeader title="Off Limits" description={`This part of the panel is not open to the ${profile ? ROLE_LABELS[profile.role].toLowerCase() : "member"} role.`} />
          <EmptyState icon={<LockIcon />} title="Your role does not allow this">
            <p>Ask an owner of the team if you need it. Everything your role can do is in the menu.</p>
            <Link href={paths.admin.dashboard} className="btn btn-outline">
              Back to the Dashboard
            </Link>
          </EmptyState>
        </>
      )}
      <StepUpDialog />
    </>
  );
}
