import { PAGE_PATHS } from "@contracts/page-paths";

/** Every route of the app, in one place (shared with the server, which answers 404 for any other path). */
export const paths = PAGE_PATHS;

export function isAdminPath(path: string): boolean {
  return path === paths.admin.root || path.startsWith(`${paths.admin.root}/`);
}
