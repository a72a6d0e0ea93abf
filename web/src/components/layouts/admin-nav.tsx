import type { ComponentType } from "react";
import { Link, useLocation } from "wouter";
import { ROLE_LABELS, type Capability, type Role } from "@contracts/team";
import { AdminAvatar } from "@/components/layouts/admin-avatar";
import {
  BanIcon,
  CoinsIcon,
  DashboardIcon,
  ExternalIcon,
  FilmIcon,
  FingerprintIcon,
  KeyIcon,
  LogOutIcon,
  ScrollIcon,
  SettingsIcon,
  ShieldIcon,
  TvIcon,
  UserCheckIcon,
  UsersIcon,
} from "@/components/ui/icons";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";

/** Each section and what the role needs to see it (the server refuses its calls otherwise); Security is everyone's. */
export const ADMIN_LINKS: { href: string; label: string; Icon: ComponentType; need?: Capability }[] = [
  { href: paths.admin.dashboard, label: "Dashboard", Icon: DashboardIcon, need: "stats" },
  { href: paths.admin.users, label: "Users", Icon: UsersIcon, need: "users" },
  { href: paths.admin.accessCodes, label: "Access Codes", Icon: KeyIcon, need: "codes" },
  { href: paths.admin.payments, label: "Payments", Icon: CoinsIcon, need: "payments" },
  { href: paths.admin.bannedUsers, label: "Banned Users", Icon: BanIcon, need: "moderation" },
  { href: paths.admin.moderation, label: "Moderation", Icon: ShieldIcon, need: "moderation" },
  { href: paths.admin.settings, label: "Settings", Icon: SettingsIcon, need: "settings" },
  { href: paths.admin.recordings, label: "Recordings", Icon: FilmIcon, need: "stream" },
  { href: paths.admin.team, label: "Team", Icon: UserCheckIcon, need: "team" },
  { href: paths.admin.audit, label: "Audit Log", Icon: ScrollIcon, need: "audit" },
  { href: paths.admin.security, label: "Security", Icon: FingerprintIcon },
];

interface AdminNavProps {
  username: string;
  role: Role;
  capabilities: Capability[];
  loggingOut: boolean;
  onLogout: () => void;
  onNavigate?: () => void;
}

/** The admin panel's navigation: the sections the member's role may use, the livestream, the member with their role, and Logout. */
export function AdminNav({ username, role, capabilities, loggingOut, onLogout, onNavigate }: AdminNavProps) {
  const [location] = useLocation();
  const links = ADMIN_LINKS.filter((link) => !link.need || capabilities.includes(link.need));
  return (
    <div className="admin-nav">
      <div className="admin-nav-brand">
        <span className="admin-nav-logo">{BRAND}</span>
        <span className="admin-nav-tag">Admin Panel</span>
      </div>
      <nav aria-label="Admin">
        <ul className="admin-nav-list">
          {links.map(({ href, label, Icon }) => (
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
            <span className="admin-user-role">{ROLE_LABELS[role]}</span>
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
