import { z } from "zod";
import { TEXT_LIMITS, tooLong } from "./text-limits.ts";
import type { ChatMessage } from "./chat.ts";

/** The night after: recordings of the built-in ingest and their replay, shared by the server and the web app. */

export type RecordingState = "recording" | "complete" | "interrupted" | "failed";

export interface RecordingView {
  id: number;
  title: string;
  state: RecordingState;
  /** Why recording stopped early (a disk that filled up, a write that failed), else null. */
  failure: string | null;
  /** ISO 8601 */
  startedAt: string;
  endedAt: string | null;
  /** Seconds recorded, and what the replay plays of them after the trims. */
  durationS: number;
  playedS: number;
  bytes: number;
  width: number;
  height: number;
  trimStartS: number;
  trimEndS: number | null;
  hidden: boolean;
  /** Made while the doors were closed: not in the replay unless the streamer keeps it (`hidden` false). */
  rehearsal: boolean;
  segments: number;
}

export interface RecordingsView {
  recordings: RecordingView[];
  /** Bytes all recordings take on disk. */
  totalBytes: number;
}

const seconds = (what: string) =>
  z
    .number({ error: `${what} must be a number of seconds` })
    .min(0, `${what} cannot be negative`)
    .max(7 * 24 * 3600, `${what} is too long`);

/** PATCH /api/admin/recordings/:id: each field left out stays; a trim end of null plays to the end. */
export const recordingPatchBody = z.strictObject({
  title: z.string().trim().min(1, "Title is required").max(TEXT_LIMITS.recordingTitle, tooLong("Title", TEXT_LIMITS.recordingTitle)).optional(),
  trimStartS: seconds("Trim start").optional(),
  trimEndS: seconds("Trim end").nullable().optional(),
  hidden: z.boolean().optional(),
});
export type RecordingPatchBody = z.infer<typeof recordingPatchBody>;

/** Without a date set, the replay is offered this long after the event's start. */
export const DEFAULT_REPLAY_DAYS = 7;

/** When the replay stops being offered (ms since the epoch): the date set, else seven days after the start. */
export function replayUntilOf(settings: { replayUntil: string | null; startDate: string }): number {
  return settings.replayUntil ? Date.parse(settings.replayUntil) : Date.parse(settings.startDate) + DEFAULT_REPLAY_DAYS * 24 * 3600_000;
}

/** The most chat lines a replay carries (the first ones of the night, should there be more). */
export const REPLAY_CHAT_LIMIT = 20_000;

/**
 * A line of the replay's chat. One moderators took down (deleted, or its author kicked or banned) keeps its
 * place and time and nothing else: no text, no name, no badge or amount, `removed` set.
 */
export type ReplayLine = ChatMessage & { removed?: true };

/** What the replay shows in place of a line moderators took down. */
export const REMOVED_LINE_TEXT = "Message removed";

/**
 * GET /api/stream/replay-chat: the night's chat as it happened — each line (unpinned, as it was said, with its
 * own time) and when lines were pinned, unpinned and deleted. The page shows what the video has reached.
 */
export interface ReplayChat {
  lines: ReplayLine[];
  events: { messageId: string; kind: "pin" | "unpin" | "delete"; at: string }[];
}
