import { queryOptions, useQuery } from "@/lib/query";
import type { UserRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";

export const USERS_CSV_URL = "/api/admin/users.csv";

export function getUsers(): Promise<UserRecord[]> {
  return api.get<UserRecord[]>("/api/admin/users");
}

export function usersQueryOptions() {
  return queryOptions({ queryKey: ["admin", "users"], queryFn: getUsers });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
