import type { ComponentType } from "react";
import { Link, useLocation } from "wouter";
import { AdminAvatar } from "@/components/layouts/admin-avatar";
import {
  BanIcon,
  CoinsIcon,
  DashboardIcon,
  ExternalIcon,
  FilmIcon,
  KeyIcon,
  LogOutIcon,
  SettingsIcon,
  ShieldIcon,
  TvIcon,
  UsersIcon,
} from "@/components/ui/icons";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";

const LINKS: { href: string; label: string; Icon: ComponentType }[] = [
  { href: paths.admin.dashboard, label: "Dashboard", Icon: DashboardIcon },
  { href: paths.admin.users, label: "Users", Icon: UsersIcon },
  { href: paths.admin.accessCodes, label: "Access Codes", Icon: KeyIcon },
  { href: paths.admin.payments, label: "Payments", Icon: CoinsIcon },
  { href: paths.admin.bannedUsers, label: "Banned Users", Icon: BanIcon },
  { href: paths.admin.moderation, label: "Moderation", Icon: ShieldIcon },
  { href: paths.admin.settings, label: "Settings", Icon: SettingsIcon },
  { href: paths.admin.recordings, label: "Recordings", Icon: FilmIcon },
];

interface AdminNavProps {
  username: string;
  loggingOut: boolean;
  onLogout: () => void;
  onNavigate?: () => void;
}

/** The admin panel's navigation: sections, the livestream, the signed-in admin and Logout. */
export function AdminNav({ username, loggingOut, onLogout, onNavigate }: AdminNavProps) {
  const [location] = useLocation();
  return (
    <div className="admin-nav">
      <div className="admin-nav-brand">
        <span className="admin-nav-logo">{BRAND}</span>
        <span className="admin-nav-tag">Admin Panel</span>
      </div>
      <nav aria-label="Admin">
        <ul className="admin-nav-list">
          {LINKS.map(({ href, label, Icon }) => (
            <li key={href}>
              <Link href={href} className="admin-nav-link" aria-current={location === href ? "page" : undefined} onClick={onNavigate}>
                <Icon />
                {label}
              </Link>
            </li>
          ))}
          <li>
            <a className="admin-nav-link" href={paths.livestream} target="_blank" rel="noopener noreferrer" onClick={onNavigate}>
              <TvIcon />
              View Livestream
              <ExternalIcon className="admin-nav-external" width={14} height={14} />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </li>
        </ul>
      </nav>
      <div className="admin-nav-footer">
        <div className="admin-user">
          <AdminAvatar username={username} />
          <span className="admin-user-text">
            <span className="admin-user-name">{username}</span>
            <span className="admin-user-role">Administrator</span>
          </span>
        </div>
        <button type="button" className="btn btn-outline btn-block" onClick={onLogout} disabled={loggingOut}>
          <LogOutIcon />
          {loggingOut ? "Logging out..." : "Logout"}
        </button>
      </div>
    </div>
  );
}
