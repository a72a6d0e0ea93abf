import type { People, PeopleAction } from "../../cluster/messages.ts";
import type { ChatMessage, ServerEvent } from "../../contracts/chat.ts";
import type { NewMessage } from "./messages.ts";

/** The hub's send path, as the parts it delegates to reach viewers through it. */
export interface SendPath {
  /** An event for everyone, on every instance. */
  broadcast(event: ServerEvent): void;
  /** An event for this instance's viewers alone. */
  deliver(event: ServerEvent): void;
  /** A new chat line, stored and sent to everyone; null when its author was kicked or banned first. */
  postLine(draft: NewMessage): Promise<ChatMessage | null>;
  /** Frames for some people's viewer sockets, or those sockets closed, on every instance. */
  toPeople(who: People, action: PeopleAction): void;
  /** The same on this instance alone (another instance has told its own). */
  applyToPeople(who: People, action: PeopleAction): void;
}
