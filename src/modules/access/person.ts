import type { StreamIdentity } from "../../contracts/access.ts";
import { readCookie } from "../../http/cookies.ts";
import type { Admin, AdminService } from "../admin/service.ts";
import { ADMIN_COOKIE } from "../admin/auth.ts";
import { VIEWER_COOKIE, type ViewerSession, type ViewerSessionService } from "./sessions.ts";

/** Who is on the stream page: a signed-in admin (never on a code), or a viewer let in with one. */
export type Person = { role: "admin"; admin: Admin } | { role: "viewer"; viewer: ViewerSession };

/**
 * The one rule for who a request comes from, used by the chat socket, the stream (playback and relay),
 * the viewer's profile and the stream page's access check: a live admin session first — an admin
 * watches and moderates under their own name, whatever viewer cookie the browser also holds — else a
 * live viewer session, else nobody.
 */
export async function findPerson(
  sessions: { admins: Pick<AdminService, "findSession">; viewerSessions: Pick<ViewerSessionService, "findSession"> },
  request: Request,
): Promise<Person | null> {
  // A member who must still set up two factors is no admin anywhere until they have.
  const session = await sessions.admins.findSession(readCookie(request, ADMIN_COOKIE));
  if (session && !session.enrolOnly) return { role: "admin", admin: session.admin };
  const viewer = await sessions.viewerSessions.findSession(readCookie(request, VIEWER_COOKIE));
  return viewer ? { role: "viewer", viewer } : null;
}

/** GET /api/me's answer for that person. */
export function streamIdentityOf(person: Person | null): StreamIdentity {
  if (!person) return { role: null, username: null };
  if (person.role === "admin") return { role: "admin", username: person.admin.username };
  return { role: person.viewer.isModerator ? "moderator" : "viewer", username: person.viewer.username };
}
