import { queryOptions } from "@/lib/query";
import type { RecordingsView } from "@contracts/replay";
import { api } from "@/lib/api-client";

/** The recordings as the panel sees them; shared by the Recordings screen and the dashboard's space line. */

/** GET /api/admin/recordings: every recording, the space they take, and what is left (null where it cannot be told). */
export type RecordingsList = RecordingsView & { freeBytes: number | null };

export const recordingsQueryKey = ["admin", "recordings"] as const;

/** While a recording is being written, the list is asked again this often (its length and size grow). */
export const RECORDING_REFRESH_MS = 5000;

export function recordingsQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: recordingsQueryKey,
    queryFn: () => api.get<RecordingsList>("/api/admin/recordings"),
    enabled,
    refetchInterval: (query) => (query.state.data?.recordings.some((r) => r.state === "recording") ? RECORDING_REFRESH_MS : false),
  });
}

const UNITS = ["bytes", "KB", "MB", "GB", "TB"] as const;

/** "0 bytes", "980 KB", "12.4 MB", "1.2 GB": sizes in powers of 1000, as disks are sold. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 bytes";
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} bytes`;
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, "")} ${UNITS[unit]}`;
}

/** "0:07", "12:05", "1:02:05": a length in seconds as a clock reads it. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}
