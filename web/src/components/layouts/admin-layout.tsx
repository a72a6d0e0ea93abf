import * as Dialog from "@radix-ui/react-dialog";
import { useQueryClient } from "@/lib/query";
import { useEffect, useState, type ReactNode } from "react";
import { useLocation } from "wouter";
import { ROLE_LABELS } from "@contracts/team";
import { AdminAvatar } from "@/components/layouts/admin-avatar";
import { AdminNav } from "@/components/layouts/admin-nav";
import { MenuIcon } from "@/components/ui/icons";
import { CloseIcon } from "@/components/ui/site-icons";
import { PageLoader } from "@/components/ui/page-loader";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";
import { useMediaQuery } from "@/hooks/use-media-query";
import { toast } from "@/hooks/use-toast";
import { useLogout } from "@/lib/admin-auth";
import { useFollowedProfile } from "@/components/layouts/use-followed-profile";

/** Below this width the sidebar collapses into a menu. */
const DESKTOP_QUERY = "(min-width: 1024px)";

/** The frame of the signed-in admin pages; sends anyone without a session to the login page. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  // The profile follows the team (a new role, an ended session); a session gone leads back to the login.
  const profile = useFollowedProfile(() => navigate(paths.admin.login, { replace: true }));
  const logout = useLogout();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (isDesktop) setMenuOpen(false);
  }, [isDesktop]);

  if (!profile.data) return <PageLoader label="Checking your session…" fullScreen />;

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast({ title: "Logged out", description: "You have been logged out of the admin panel." });
        navigate(paths.admin.login, { replace: true });
        queryClient.clear();
      },
    });

  const nav = (onNavigate?: () => void) => (
    <AdminNav
      username={profile.data.username}
      role={profile.data.role}
      capabilities={profile.data.capabilities}
      loggingOut={logout.isPending}
      onLogout={onLogout}
      onNavigate={onNavigate}
    />
  );

  return (
    <div className="admin">
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      {isDesktop ? (
        <aside className="admin-sidebar">{nav()}</aside>
      ) : (
        <header className="admin-topbar">
          <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
            <Dialog.Trigger className="btn btn-ghost btn-icon admin-menu-button" aria-label="Open menu">
              <MenuIcon />
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="admin-drawer-overlay" />
              <Dialog.Content className="admin-drawer" aria-describedby={undefined}>
                <Dialog.Title className="sr-only">Admin menu</Dialog.Title>
                <Dialog.Close className="btn btn-ghost btn-icon admin-drawer-close" aria-label="Close menu">
                  <CloseIcon />
                </Dialog.Close>
                {nav(() => setMenuOpen(false))}
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
          <span className="admin-topbar-brand">{BRAND}</span>
          <span className="admin-topbar-user">
            <span className="admin-user-name">{profile.data.username}</span>
            <span className="admin-user-role">{ROLE_LABELS[profile.data.role]}</span>
          </span>
          <AdminAvatar username={profile.data.username} small />
        </header>
      )}
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
