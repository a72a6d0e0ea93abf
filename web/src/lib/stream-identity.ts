import type { StreamIdentity } from "@contracts/access";
import { api } from "@/lib/api-client";

/**
 * GET /api/me: who this browser is on the stream page — a signed-in admin (who needs no code), a
 * moderator, a viewer, or nobody yet. Answered for anyone without an error status; null when the server
 * could not be reached.
 */
export async function fetchStreamIdentity(): Promise<StreamIdentity | null> {
  try {
    return await api.get<StreamIdentity>("/api/me");
  } catch {
    return null;
  }
}
