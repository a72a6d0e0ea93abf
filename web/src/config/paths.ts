/** Every route of the app, in one place. */
export const paths = {
  home: "/",
  checkoutSuccess: "/checkout-success",
  access: "/access",
  testAccess: "/test-access",
  livestream: "/livestream",
  livestreamNew: "/livestream-new",
  livestreamFixed: "/livestream-fixed",
  design: "/design",
  layoutTest: "/layout-test",
  admin: {
    root: "/admin",
    login: "/admin/login",
    createFirstAdmin: "/admin/create-first-admin",
    dashboard: "/admin/dashboard",
    accessCodes: "/admin/access-codes",
    users: "/admin/users",
    payments: "/admin/payments",
    bannedUsers: "/admin/banned-users",
    moderation: "/admin/moderation",
    settings: "/admin/settings",
    recordings: "/admin/recordings",
    team: "/admin/team",
    audit: "/admin/audit",
    security: "/admin/security",
    /** An invite link's page (no session needed: the token is the proof). */
    invite: "/admin/invite/:token",
  },
} as const;

export function isAdminPath(path: string): boolean {
  return path === paths.admin.root || path.startsWith(`${paths.admin.root}/`);
}
