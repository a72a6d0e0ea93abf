import { queryOptions } from "@/lib/query";
import type { GenerateAccessCodeBody, GeneratedAccessCode } from "@contracts/access";
import { api } from "@/lib/api-client";
import { getDeviceFingerprint } from "@/lib/fingerprint";

/** POST /api/generate-access-code: the code for a paid intent (the same code every time it is asked). */
export function accessCodeForPaymentQueryOptions(paymentIntentId: string) {
  return queryOptions({
    queryKey: ["access-code-for-payment", paymentIntentId],
    queryFn: async () => {
      const body: GenerateAccessCodeBody = { paymentIntentId, deviceFingerprint: await getDeviceFingerprint() };
      return api.post<GeneratedAccessCode>("/api/generate-access-code", body);
    },
  });
}
