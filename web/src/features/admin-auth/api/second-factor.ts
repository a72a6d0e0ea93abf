import { useMutation, useQueryClient } from "@/lib/query";
import { CODE_REFUSALS_THAT_KEEP_THE_SIGN_IN, type AdminProfile, type LoginAnswer, type SecondFactorBody } from "@contracts/team";
import { api, ApiError } from "@/lib/api-client";
import { loadSignedInProfile } from "@/lib/admin-auth";
import { getAssertion, type RequestOptionsJSON } from "@/lib/webauthn";

/** How the member finishes signing in: a code from their app, a recovery code, or one of their keys. */
export type SecondFactorProof = { kind: "totp"; code: string } | { kind: "recovery"; code: string } | { kind: "webauthn" };

export function sendSecondFactor(body: SecondFactorBody): Promise<LoginAnswer> {
  return api.post<LoginAnswer>("/api/admin/login/second-factor", body);
}

export function signInKeyOptions(): Promise<RequestOptionsJSON> {
  return api.post<RequestOptionsJSON>("/api/admin/login/webauthn-options");
}

async function bodyFor(proof: SecondFactorProof): Promise<SecondFactorBody> {
  if (proof.kind === "totp") return { code: proof.code };
  if (proof.kind === "recovery") return { recoveryCode: proof.code };
  return { webauthn: await getAssertion(await signInKeyOptions()) };
}

/**
 * A refusal that ends the waiting sign-in (it expired, or too many wrong codes): the password must be
 * given again. Any 401 but a wrong or already used code is one; those leave the sign-in open for another try.
 */
export function signInEnded(error: Error): boolean {
  return error instanceof ApiError && error.status === 401 && !CODE_REFUSALS_THAT_KEEP_THE_SIGN_IN.includes(error.serverMessage ?? "");
}

/** The second step of signing in; the form shows every failure itself, so no toast. */
export function useSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (proof: SecondFactorProof): Promise<AdminProfile> => {
      await sendSecondFactor(await bodyFor(proof));
      return loadSignedInProfile(queryClient);
    },
    meta: { errorToast: false },
  });
}
