import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { QueryClient } from "@tanstack/react-query";
import type { CreateFirstAdminBody, FirstAdminStatus, LoginBody } from "@contracts/admin";
import type { AdminProfile, Capability, LoginAnswer } from "@contracts/team";
import { api, serverErrorMessage } from "@/lib/api-client";

/** The admin session and first-run setup calls, used by the admin auth screens and the admin layout. */
export const adminAuthKeys = {
  profile: ["admin", "profile"] as const,
  firstAdmin: ["admin", "check-first-admin"] as const,
};

export function getAdminProfile(): Promise<AdminProfile> {
  return api.get<AdminProfile>("/api/admin/profile");
}

export function adminProfileQueryOptions() {
  return queryOptions({ queryKey: adminAuthKeys.profile, queryFn: getAdminProfile });
}

export function useAdminProfile() {
  return useQuery(adminProfileQueryOptions());
}

/** Whether the signed-in member's role may do `capability` (the server refuses it otherwise; the panel hides it). */
export function useCan(capability: Capability): boolean {
  return useAdminProfile().data?.capabilities.includes(capability) ?? false;
}

/** Once a session exists (a sign-in, an accepted invite, two factors set up): its profile, cached for the panel. */
export async function loadSignedInProfile(queryClient: QueryClient): Promise<AdminProfile> {
  const profile = await getAdminProfile();
  queryClient.setQueryData(adminAuthKeys.profile, profile);
  return profile;
}

/** The profile if signed in, else null: for pages anyone may see (the login page, a moderator's chat). */
export function useAdminSession(enabled = true) {
  return useQuery({
    queryKey: [...adminAuthKeys.profile, "optional"],
    queryFn: () => api.get<AdminProfile | null>("/api/admin/profile", { on401: "returnNull" }),
    enabled,
  });
}

export function checkFirstAdmin(): Promise<FirstAdminStatus> {
  return api.get<FirstAdminStatus>("/api/admin/check-first-admin");
}

export function firstAdminStatusQueryOptions() {
  return queryOptions({ queryKey: adminAuthKeys.firstAdmin, queryFn: checkFirstAdmin });
}

export function useFirstAdminStatus() {
  return useQuery(firstAdminStatusQueryOptions());
}

/** The password step: a session, or a challenge waiting for the second factor (`secondFactor`). */
export function loginAdmin(body: LoginBody): Promise<LoginAnswer> {
  return api.post<LoginAnswer>("/api/admin/login", body);
}

/** Why a login failed, as the form and its toast say it. */
export function loginFailure(error: Error): string {
  return serverErrorMessage(error) ?? "Invalid username or password";
}

/** The password step; with a session, the panel's profile is loaded before it answers. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const answer = await loginAdmin(body);
      return { answer, profile: answer.secondFactor ? null : await loadSignedInProfile(queryClient) };
    },
    meta: { errorToast: (error) => ({ title: "Login failed", description: loginFailure(error) }) },
  });
}

export function createFirstAdmin(body: CreateFirstAdminBody): Promise<{ username: string }> {
  return api.post<{ username: string }>("/api/admin/create-first", body);
}

export function useCreateFirstAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFirstAdmin,
    meta: { errorToast: "Failed to create admin account." },
    onSuccess: () => queryClient.setQueryData<FirstAdminStatus>(adminAuthKeys.firstAdmin, { needsFirstAdmin: false }),
  });
}

export function logoutAdmin(): Promise<unknown> {
  return api.post<unknown>("/api/admin/logout");
}

/** Logging out forgets every cached response (the caller clears the cache once it has left the panel). */
export function useLogout() {
  return useMutation({ mutationFn: logoutAdmin, meta: { errorToast: "Failed to log out. Please try again." } });
}
