import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminProfile, CreateFirstAdminBody, FirstAdminStatus, LoginBody } from "@contracts/admin";
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

export function loginAdmin(body: LoginBody): Promise<AdminProfile> {
  return api.post<AdminProfile>("/api/admin/login", body);
}

/** Why a login failed, as the form and its toast say it. */
export function loginFailure(error: Error): string {
  return serverErrorMessage(error) ?? "Invalid username or password";
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginAdmin,
    meta: { errorToast: (error) => ({ title: "Login failed", description: loginFailure(error) }) },
    onSuccess: (profile) => queryClient.setQueryData(adminAuthKeys.profile, profile),
  });
}

export function createFirstAdmin(body: CreateFirstAdminBody): Promise<AdminProfile> {
  return api.post<AdminProfile>("/api/admin/create-first", body);
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
