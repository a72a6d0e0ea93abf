/** Every page route of the web app, in one place: the web's router matches them, the server answers 404 for any other path. */
export const PAGE_PATHS = {
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

const patternOf = (route: string) => new RegExp(`^${route.replace(/:\w+/g, "[^/]+")}/?$`, "i");

const PAGE_PATTERNS = [...Object.values(PAGE_PATHS).filter((p) => typeof p === "string"), ...Object.values(PAGE_PATHS.admin)].map(patternOf);

/**
 * Whether the web app has a page at `pathname`, matched as its router matches (any case, one trailing slash
 * allowed): any other path shows the not-found page, which the server answers with 404.
 */
export function isPagePath(pathname: string): boolean {
  return PAGE_PATTERNS.some((pattern) => pattern.test(pathname));
}
