import type { ComponentType } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { AdminPanelPage } from "@/app/admin-panel-page";
import { AdminLayout } from "@/components/layouts/admin-layout";
import { ADMIN_LINKS } from "@/components/layouts/admin-nav";
import { paths } from "@/config/paths";
import { AccessCodesPage } from "@/features/admin-access-codes/components/access-codes-page";
import { AcceptInvitePage } from "@/features/admin-auth/components/accept-invite-page";
import { LoginPage } from "@/features/admin-auth/components/login-page";
import { CreateFirstAdminPage } from "@/features/admin-auth/components/create-first-admin-page";
import { AuditPage } from "@/features/admin-audit/components/audit-page";
import { BannedUsersPage } from "@/features/admin-banned-users/components/banned-users-page";
import { DashboardPage } from "@/features/admin-dashboard/components/dashboard-page";
import { ModerationPage } from "@/features/admin-moderation/components/moderation-page";
import { PaymentsPage } from "@/features/admin-payments/components/payments-page";
import { RecordingsPage } from "@/features/admin-recordings/components/recordings-page";
import { SecurityPage } from "@/features/admin-security/components/security-page";
import { SettingsPage } from "@/features/admin-settings/components/settings-page";
import { TeamPage } from "@/features/admin-team/components/team-page";
import { UsersPage } from "@/features/admin-users/components/users-page";
import { NotFoundPage } from "@/features/not-found/components/not-found-page";

/** The signed-in pages; they share one AdminLayout that stays mounted while moving between them. */
const PROTECTED: Record<string, ComponentType> = {
  [paths.admin.dashboard]: DashboardPage,
  [paths.admin.accessCodes]: AccessCodesPage,
  [paths.admin.users]: UsersPage,
  [paths.admin.payments]: PaymentsPage,
  [paths.admin.bannedUsers]: BannedUsersPage,
  [paths.admin.moderation]: ModerationPage,
  [paths.admin.settings]: SettingsPage,
  [paths.admin.recordings]: RecordingsPage,
  [paths.admin.team]: TeamPage,
  [paths.admin.audit]: AuditPage,
  [paths.admin.security]: SecurityPage,
};

/** Every /admin path. Loaded on demand, so viewers never download the admin panel. */
export default function AdminRouter() {
  const [location] = useLocation();
  const Page = PROTECTED[location];
  if (Page) {
    return (
      <AdminLayout>
        <AdminPanelPage need={ADMIN_LINKS.find((link) => link.href === location)?.need}>
          <Page />
        </AdminPanelPage>
      </AdminLayout>
    );
  }
  return (
    <Switch>
      <Route path={paths.admin.root}>
        <Redirect to={paths.admin.login} replace />
      </Route>
      <Route path={paths.admin.login} component={LoginPage} />
      <Route path={paths.admin.createFirstAdmin} component={CreateFirstAdminPage} />
      <Route path={paths.admin.invite} component={AcceptInvitePage} />
      <Route>
        <main>
          <NotFoundPage />
        </main>
      </Route>
    </Switch>
  );
}
