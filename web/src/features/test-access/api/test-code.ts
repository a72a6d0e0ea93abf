import { queryOptions } from "@/lib/query";
import type { GeneratedAccessCode } from "@contracts/access";
import { api } from "@/lib/api-client";

/** GET /api/test/generate-access-code: a fresh SCP- test code; 404 where test codes are off. */
export function testCodeQueryOptions() {
  return queryOptions({ queryKey: ["test-access-code"], queryFn: () => api.get<GeneratedAccessCode>("/api/test/generate-access-code"), gcTime: 0 });
}
