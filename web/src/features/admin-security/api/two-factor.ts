import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import { adminAuthKeys } from "@/lib/admin-auth";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { createCredential, webauthnFailure, type CreationOptionsJSON } from "@/lib/webauthn";

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The member's own second factors, and whether the team requires them. */
export interface TwoFactorState {
  totp: boolean;
  webauthn: number;
  recoveryCodesLeft: number;
  passkeys: Passkey[];
  /** Why no key can be added at this site's address, or null. */
  passkeysUnavailable: string | null;
  teamRequires: boolean;
}

export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

export function getTwoFactor(): Promise<TwoFactorState> {
  return api.get<TwoFactorState>("/api/admin/2fa");
}

export function twoFactorQueryOptions() {
  return queryOptions({ queryKey: ["admin", "2fa"], queryFn: getTwoFactor });
}

export function useTwoFactor() {
  return useQuery(twoFactorQueryOptions());
}

/**
 * After a change to the factors: they are loaded again, and so is the profile, which says which factors the
 * member has. Not while enrolling: the profile then still says "enrol only" until the member has saved
 * their recovery codes and goes on to the panel.
 */
function useFactorsChanged() {
  const queryClient = useQueryClient();
  return (refreshProfile: boolean) => {
    void queryClient.invalidateQueries({ queryKey: twoFactorQueryOptions().queryKey });
    if (refreshProfile) void queryClient.invalidateQueries({ queryKey: adminAuthKeys.profile, exact: true });
  };
}

/** A new authenticator-app secret (not in force until a code from the app confirms it). */
export function useTotpSetup() {
  return useMutation({
    mutationFn: () => api.post<TotpSetup>("/api/admin/2fa/totp/setup"),
    meta: { errorToast: false },
  });
}

/** Turns the app on with a code from it; answers the ten recovery codes, shown once. */
export function useTotpEnable(enrolling: boolean) {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: (code: string) => api.post<{ recoveryCodes: string[] }>("/api/admin/2fa/totp/enable", { code }),
    meta: { errorToast: false },
    onSuccess: () => changed(!enrolling),
  });
}

/** Adds a passkey or security key: options from the server, the browser makes the key, the server keeps it. */
export function useAddPasskey(enrolling: boolean) {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await api.post<CreationOptionsJSON>("/api/admin/2fa/webauthn/register-options");
      let response;
      try {
        response = await createCredential(options);
      } catch (error) {
        throw new Error(webauthnFailure(error));
      }
      return api.post<{ key: Passkey; recoveryCodes: string[] | null }>("/api/admin/2fa/webauthn/register", { name: name.trim() || undefined, response });
    },
    meta: { errorToast: false },
    onSuccess: () => changed(!enrolling),
  });
}

export function useRemovePasskey() {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ ok: true }>(`/api/admin/2fa/webauthn/${encodeURIComponent(id)}`),
    meta: { errorToast: serverMessageOr("Could not remove the key.") },
    onSuccess: () => changed(true),
  });
}

/** A new set of ten recovery codes (the password and a code confirm it); the old set stops working. */
export function useNewRecoveryCodes() {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api.post<{ recoveryCodes: string[] }>("/api/admin/2fa/recovery-codes", body),
    meta: { errorToast: false },
    onSuccess: () => changed(true),
  });
}

/** Turns every second factor off (the password and a code confirm it). */
export function useDisableTwoFactor() {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api.post<{ ok: true }>("/api/admin/2fa/disable", body),
    meta: { errorToast: false },
    onSuccess: () => changed(true),
  });
}
