import { z } from "zod";
import type { ServerEvent } from "../contracts/chat.ts";

/**
 * What one instance tells the others, one schema per kind of message (`k`). A message from the channel
 * that fits none of them (another version's message, a stray publish by hand) is ignored rather than
 * applied half-way. The checks are on the shape only; the viewer-facing event inside an `event` or a
 * `people` message is passed on as the instance that made it wrote it.
 */

const count = z.number().min(0);
const name = z.string().min(1).max(200);
/** Any frame for viewers: the instance that sent it built it from the chat protocol's own schema. */
const serverEvent = z.custom<ServerEvent>((value) => typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string");

/** Which sockets a message is for: every viewer socket (never an admin's) matching any of the fields given. */
const peopleSchema = z.object({
  username: name.optional(),
  userId: count.nullish(),
  accessCodeId: count.nullish(),
  /** A team member's own sockets (admins' sockets are never matched by name, user or code). */
  adminId: count.nullish(),
});

export const clusterMessageSchema = z.discriminatedUnion("k", [
  /** An event for every viewer: each instance sends it to its own sockets. */
  z.object({ k: z.literal("event"), event: serverEvent }),
  /** Every tick: how many people this instance serves, and the fake viewers if it runs them. */
  z.object({ k: z.literal("presence"), viewers: count, sockets: count, fake: count.nullable() }),
  /** The event's heart total after this instance added its hearts to it. */
  z.object({ k: z.literal("hearts"), total: count }),
  /** Frames for some people's sockets, or their sockets closed (a ban, kick, timeout, revoked pass, new moderator). */
  z.object({
    k: z.literal("people"),
    who: peopleSchema,
    send: z.array(z.custom<ServerEvent>()).optional(),
    close: z.object({ code: z.number(), reason: z.string(), notice: z.string() }).optional(),
    moderator: z.boolean().optional(),
  }),
  /** A kick's cool-down: the person (by name, user and code) may not rejoin on any instance until then. */
  z.object({ k: z.literal("kick"), username: name, userId: count.nullish(), accessCodeId: count.nullish(), until: count }),
  /** State kept in memory changed in the database: read it again. */
  z.object({ k: z.literal("reload"), what: z.enum(["moderation", "stream"]) }),
  /** The admin's fake viewer setting. */
  z.object({ k: z.literal("fake"), enabled: z.boolean(), target: count }),
  /** Something cached (settings, sessions, codes, bans) was written: caches are emptied. */
  z.object({ k: z.literal("wrote") }),
  /** A team member's role or sessions changed: their open admin panels read their profile again. */
  z.object({ k: z.literal("admin-changed"), adminId: count }),
  /** The built-in ingest: the stream key was rotated (`drop`: any publisher is dropped), or a publish began or ended (`changed`: look again who holds it). */
  z.object({ k: z.literal("ingest"), what: z.enum(["drop", "changed"]) }),
]);

/** As published on the event's channel: the sending instance's name (`f`) and its message (`m`). */
export const clusterEnvelopeSchema = z.object({ f: name, m: clusterMessageSchema });

export type People = z.infer<typeof peopleSchema>;
export type ClusterMessage = z.infer<typeof clusterMessageSchema>;
export type ClusterEnvelope = z.infer<typeof clusterEnvelopeSchema>;
/** What a `people` message does to the sockets it names. */
export type PeopleAction = Omit<Extract<ClusterMessage, { k: "people" }>, "k" | "who">;

/** The message an instance published, or null when it is not one this version understands. */
export function readClusterEnvelope(raw: string): ClusterEnvelope | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = clusterEnvelopeSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
