import type { ChatHub } from "./hub.ts";

/** A refusal the sender sees as an `error` event. */
export class FrameRefused extends Error {}

/** The person a moderator frame acts on, online or not. */
export interface ChatTarget {
  userId: number | null;
  username: string;
  accessCodeId: number | null;
  isModerator: boolean;
  isAdmin: boolean;
}

/** How a frame names its target: targetUsername, else the author of messageId, else username. */
export interface TargetNaming {
  targetUsername?: string;
  messageId?: string;
  username?: string;
}

/** Finds the user a moderator frame names, preferring an open socket's identity; refuses an unknown name. */
export async function findTarget(hub: ChatHub, naming: TargetNaming): Promise<ChatTarget> {
  let name = naming.targetUsername?.trim();
  if (!name && naming.messageId) {
    const message = await hub.messages.find(naming.messageId);
    if (!message) throw new FrameRefused("That message no longer exists.");
    name = message.username;
  }
  name ||= naming.username?.trim();
  if (!name) throw new FrameRefused("Say which user to act on.");

  const online = hub.socketsOf(name)[0]?.identity;
  if (online) return { userId: online.userId, username: online.username, accessCodeId: online.accessCodeId, isModerator: online.isModerator, isAdmin: false };
  const known = await hub.bans.findViewer(name);
  if (known) return { userId: known.userId, username: known.username, accessCodeId: known.accessCodeId, isModerator: known.isModerator, isAdmin: false };
  if (hub.socketsOf(name, true).length > 0 || (await hub.bans.isAdminName(name))) {
    return { userId: null, username: name, accessCodeId: null, isModerator: true, isAdmin: true };
  }
  throw new FrameRefused(`There is no user named '${name.slice(0, 40)}'.`);
}

/** The same person: the same name, user or access code (a timeout, kick or ban holds by each). */
export function isSamePerson(actor: { username: string; userId: number | null; accessCodeId: number | null }, target: ChatTarget): boolean {
  return (
    target.username.toLowerCase() === actor.username.toLowerCase() ||
    (actor.userId !== null && target.userId === actor.userId) ||
    (actor.accessCodeId !== null && target.accessCodeId === actor.accessCodeId)
  );
}

/** The checks every action on a person shares: not oneself, never an admin, a moderator only by an admin. */
export function checkMayActOn(actor: { username: string; isAdmin: boolean }, target: ChatTarget, verb: "kick" | "ban" | "time out"): void {
  if (target.username.toLowerCase() === actor.username.toLowerCase()) throw new FrameRefused(`You cannot ${verb} yourself.`);
  const removal = verb !== "time out";
  if (target.isAdmin) throw new FrameRefused(removal ? "Admins cannot be kicked or banned." : "Admins cannot be timed out.");
  if (target.isModerator && !actor.isAdmin) throw new FrameRefused(removal ? "Only an admin can remove a moderator." : "Only an admin can time out a moderator.");
}
