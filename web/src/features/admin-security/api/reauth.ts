import { useMutation } from "@/lib/query";
import type { ReauthBody } from "@contracts/team";
import { api } from "@/lib/api-client";
import { getAssertion, webauthnFailure, type RequestOptionsJSON } from "@/lib/webauthn";

/** How the member proves again it is them: the password (no second factor), a code, or a key. */
export type Proof = { kind: "password"; password: string } | { kind: "totp"; code: string } | { kind: "recovery"; code: string } | { kind: "webauthn" };

async function bodyFor(proof: Proof): Promise<ReauthBody> {
  if (proof.kind === "password") return { password: proof.password };
  if (proof.kind === "totp") return { code: proof.code };
  if (proof.kind === "recovery") return { recoveryCode: proof.code };
  const options = await api.post<RequestOptionsJSON>("/api/admin/reauth/webauthn-options");
  try {
    return { webauthn: await getAssertion(options) };
  } catch (error) {
    throw new Error(webauthnFailure(error));
  }
}

/** Step-up: a fresh proof for this session, good for ten minutes of actions that move money or keys. */
export function useReauth() {
  return useMutation({
    mutationFn: async (proof: Proof) => api.post<{ ok: true }>("/api/admin/reauth", await bodyFor(proof)),
    meta: { errorToast: false },
  });
}
