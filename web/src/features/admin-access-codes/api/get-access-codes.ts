import { queryOptions, useQuery } from "@/lib/query";
import type { QueryClient } from "@tanstack/react-query";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";

export const accessCodesQueryKey = ["admin", "access-codes"] as const;
export const ACCESS_CODES_CSV_URL = "/api/admin/access-codes.csv";

export function getAccessCodes(): Promise<AccessCodeRecord[]> {
  return api.get<AccessCodeRecord[]>("/api/admin/access-codes");
}

export function accessCodesQueryOptions() {
  return queryOptions({ queryKey: accessCodesQueryKey, queryFn: getAccessCodes });
}

export function useAccessCodes() {
  return useQuery(accessCodesQueryOptions());
}

/** Puts a changed or new record into the cached list (new ones first, as the server orders them). */
export function storeAccessCode(queryClient: QueryClient, record: AccessCodeRecord): void {
  queryClient.setQueryData<AccessCodeRecord[]>(accessCodesQueryKey, (list = []) =>
    list.some((c) => c.id === record.id) ? list.map((c) => (c.id === record.id ? record : c)) : [record, ...list],
  );
}
