import { useQueryClient } from "@/lib/query";
import { useLocation } from "wouter";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { Alert } from "@/components/ui/alert";
import { paths } from "@/config/paths";
import { toast, toastError } from "@/hooks/use-toast";
import { loadSignedInProfile, useAdminProfile } from "@/lib/admin-auth";
import { PasswordSection } from "./password-section";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSection } from "./two-factor-section";

/**
 * Every member's own security: two-factor sign-in, where they are signed in, and their password. A member
 * the team requires to set up two factors sees only that set-up until it is done.
 */
export function SecurityPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const enrolling = useAdminProfile().data?.mustEnrol ?? false;

  const enrolled = () =>
    loadSignedInProfile(queryClient).then(
      () => {
        toast({ title: "You're all set", description: "Two-factor sign-in is on. Welcome to the panel." });
        navigate(paths.admin.dashboard);
      },
      () => toastError("Could not open the panel. Sign in again."),
    );

  return (
    <>
      <AdminPageHeader
        title="Security"
        description={enrolling ? "One step before the panel opens: a second way to prove it's you." : "How you sign in, where you are signed in, and your password."}
      />
      <div className="security-page">
        {enrolling ? <Alert title="Your team requires two-factor sign-in">Set up an authenticator app or a passkey below. The rest of the panel opens once you have.</Alert> : null}
        <TwoFactorSection enrolling={enrolling} onEnrolled={() => void enrolled()} />
        {enrolling ? null : (
          <>
            <SessionsSection />
            <PasswordSection />
          </>
        )}
      </div>
    </>
  );
}
