import { useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { z } from "zod";
import type { acceptInviteBody, AdminProfile, Role } from "@contracts/team";
import { api } from "@/lib/api-client";
import { loadSignedInProfile } from "@/lib/admin-auth";

export type AcceptInviteBody = z.infer<typeof acceptInviteBody>;

export function getInvite(token: string): Promise<{ email: string; role: Role }> {
  return api.get(`/api/admin/invites/${encodeURIComponent(token)}`);
}

/** Who the invite is for and as what (404 with the server's words when it is used, expired or revoked). */
export function useInvite(token: string) {
  return useQuery({ queryKey: ["admin", "invite", token], queryFn: () => getInvite(token) });
}

export function acceptInvite(token: string, body: AcceptInviteBody): Promise<{ username: string; role: Role; mustEnrol: boolean }> {
  return api.post(`/api/admin/invites/${encodeURIComponent(token)}/accept`, body);
}

/** Joins the team with a username and password; the new session's profile is loaded before it answers. */
export function useAcceptInvite(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AcceptInviteBody): Promise<AdminProfile> => {
      await acceptInvite(token, body);
      return loadSignedInProfile(queryClient);
    },
    meta: { errorToast: false },
  });
}
