import type { ReplayChat, ReplayLine } from "@contracts/replay";

/**
 * The night's chat as the replay shows it: at a moment of the night, the lines said by then, less those
 * deleted by then, and the line pinned at that moment. Moving the video back takes lines away again.
 */
export interface ReplayChatIndex {
  /** Oldest first, with their times (ms) beside them. */
  lines: ReplayLine[];
  lineTimes: number[];
  events: { messageId: string; kind: "pin" | "unpin" | "delete"; at: number }[];
  eventTimes: number[];
}

export function indexReplayChat(chat: ReplayChat): ReplayChatIndex {
  const lines = chat.lines
    .map((line, order) => ({ line, order, at: Date.parse(line.timestamp) }))
    .filter((l) => !Number.isNaN(l.at))
    .sort((a, b) => a.at - b.at || a.order - b.order);
  const events = chat.events
    .map((e, order) => ({ messageId: e.messageId, kind: e.kind, at: Date.parse(e.at), order }))
    .filter((e) => !Number.isNaN(e.at))
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map(({ messageId, kind, at }) => ({ messageId, kind, at }));
  return { lines: lines.map((l) => l.line), lineTimes: lines.map((l) => l.at), events, eventTimes: events.map((e) => e.at) };
}

/** How many of the times (sorted) are at or before `at`. */
function countUpTo(times: readonly number[], at: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (times[mid]! <= at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** How far the chat has got at a moment: lines said and events happened by then (changes only when one more is reached). */
export interface ChatCut {
  said: number;
  happened: number;
}

export function chatCutAt(index: ReplayChatIndex, at: number | null): ChatCut {
  if (at === null) return { said: 0, happened: 0 };
  return { said: countUpTo(index.lineTimes, at), happened: countUpTo(index.eventTimes, at) };
}

export const sameCut = (a: ChatCut, b: ChatCut) => a.said === b.said && a.happened === b.happened;

/** The newest `visible` lines at a cut (deleted ones gone), and the line pinned then. */
export function chatAtCut(index: ReplayChatIndex, cut: ChatCut, visible: number): { lines: ReplayLine[]; pinned: ReplayLine | null } {
  const deleted = new Set<string>();
  let pinnedId: string | null = null;
  for (const event of index.events.slice(0, cut.happened)) {
    if (event.kind === "pin") pinnedId = event.messageId;
    else if (event.kind === "unpin" && pinnedId === event.messageId) pinnedId = null;
    else if (event.kind === "delete") {
      deleted.add(event.messageId);
      if (pinnedId === event.messageId) pinnedId = null;
    }
  }
  const lines: ReplayLine[] = [];
  let pinned: ReplayLine | null = null;
  for (let i = cut.said - 1; i >= 0; i--) {
    const line = index.lines[i]!;
    if (deleted.has(line.id)) continue;
    if (line.id === pinnedId) pinned = { ...line, isPinned: true };
    if (lines.length < visible) lines.unshift(line);
    else if (pinnedId === null || pinned) break;
  }
  return { lines, pinned };
}
