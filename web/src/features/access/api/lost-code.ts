import type { LostCodeBody } from "@contracts/access";
import { api } from "@/lib/api-client";

/** POST /api/lost-code: the server answers the same whether or not the address has a code. */
export async function requestLostCode(body: LostCodeBody): Promise<string> {
  const result = await api.post<{ ok: boolean; message: string }>("/api/lost-code", body);
  return result.message;
}
