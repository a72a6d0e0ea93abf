import { Elysia, t } from "elysia";
import { acceptInviteBody, auditQuery, inviteBody, requireTwoFactorBody, roleBody, type Role } from "../../contracts/team.ts";
import type { AppContext } from "../../context.ts";
import { csvResponse } from "../../http/csv.ts";
import { clientIpPlugin } from "../../http/security.ts";
import { badRequest, conflict, notFound } from "../../lib/errors.ts";
import { adminRoutes, requireRecentProof, startAdminSession } from "./auth.ts";
import { inviteMail, teamChangeMail } from "./mails.ts";
import { AdminSessions } from "./sessions.ts";

export const OWN_FACTOR_FIRST = "Set up two-factor sign-in for yourself first: the rule applies to you too, at once";

const idParam = t.Object({ id: t.Numeric({ minimum: 1, maximum: 2 ** 31 - 1 }) });

/** The Team screen (owners): members, roles, invites, two factors for all, members' sessions; the audit log; accepting an invite. */
export function teamRoutes(ctx: AppContext) {
  const { team, twoFactor } = ctx.adminTeam;
  const sessions = new AdminSessions(ctx.store, ctx.admins);
  const invitesPerIp = ctx.cluster.limiter("admin-invite-accepts", 20, 15 * 60_000);

  const tellOwners = async (what: string) => {
    for (const owner of await team.owners()) {
      await ctx.mail.enqueue({ to: owner.email, ...teamChangeMail(what, ctx.site.url()) }).catch((error: unknown) => ctx.log.error("could not queue a team notice", error));
    }
  };
  const inviteUrl = (token: string) => `${ctx.site.url()}/admin/invite/${token}`;

  const owners = adminRoutes(ctx, "team")
    .get("/team", ({ admin }) => team.view(admin.id))
    .post(
      "/team/invites",
      async ({ body, admin, session, clientIp, set }) => {
        requireRecentProof(session);
        const invite = await team.invite(body.email, body.role, admin);
        const url = inviteUrl(invite.token);
        const { eventTitle, organizerName } = await ctx.settings.get();
        await ctx.mail.enqueue({ to: body.email, ...inviteMail(url, body.role, admin.username, { title: eventTitle, organizerName }) });
        await ctx.audit.record(admin, "team.invite", body.email, null, { email: body.email, role: body.role }, clientIp);
        set.status = 201;
        return { inviteUrl: url, id: invite.id, expiresAt: new Date(invite.expiresAt).toISOString() };
      },
      { body: inviteBody },
    )
    .delete(
      "/team/invites/:id",
      async ({ params, admin, session, clientIp }) => {
        requireRecentProof(session);
        if (!(await team.revokeInvite(params.id))) throw notFound("No such open invite");
        await ctx.audit.record(admin, "team.invite-revoke", `#${params.id}`, null, null, clientIp);
        return { ok: true };
      },
      { params: idParam },
    )
    .put(
      "/team/require-2fa",
      async ({ body, admin, session, clientIp }) => {
        requireRecentProof(session);
        // On at once for every open session: an owner without a second factor would lock themselves out of all but enrolling.
        if (body.required && !(await twoFactor.hasSecondFactor(admin.id))) throw conflict(OWN_FACTOR_FIRST);
        const before = await team.requiresTwoFactor();
        await team.setRequireTwoFactor(body.required);
        // Open chat sockets of members without a second factor speak as staff no longer.
        if (body.required)
          for (const m of (await team.view(admin.id)).members)
            if (!m.twoFactor) {
              ctx.chat.recheckStaff(m.id);
              ctx.adminEvents.changed(m.id);
            }
        await ctx.audit.record(admin, "team.require-2fa", null, { required: before }, { required: body.required }, clientIp);
        return { requireTwoFactor: body.required };
      },
      { body: requireTwoFactorBody },
    )
    .put(
      "/team/:id",
      async ({ params, body, admin, session, clientIp }) => {
        requireRecentProof(session);
        const member = await team.setRole(params.id, body.role, admin);
        ctx.chat.recheckStaff(member.id);
        ctx.adminEvents.changed(member.id);
        await ctx.audit.record(admin, "team.role", member.username, { role: member.role }, { role: body.role }, clientIp);
        return { id: member.id, username: member.username, role: body.role as Role };
      },
      { params: idParam, body: roleBody },
    )
    .delete(
      "/team/:id",
      async ({ params, admin, session, clientIp }) => {
        requireRecentProof(session);
        if (params.id === admin.id) throw badRequest("You cannot remove yourself; ask another owner");
        const member = await team.remove(params.id, admin);
        ctx.chat.recheckStaff(member.id);
        ctx.adminEvents.changed(member.id);
        await ctx.audit.record(admin, "team.remove", member.username, { role: member.role, email: member.email }, null, clientIp);
        await tellOwners(`${admin.username} removed ${member.username} (${member.role}) from the team.`);
        return { ok: true };
      },
      { params: idParam },
    )
    .post(
      "/team/:id/end-sessions",
      async ({ params, admin, session, clientIp, sessionId }) => {
        requireRecentProof(session);
        const member = await ctx.admins.findById(params.id);
        if (!member) throw notFound("No such team member");
        const ended = await sessions.endOthers(member.id, member.id === admin.id ? sessionId : null, member.id === admin.id ? "ended-elsewhere" : "ended-by-owner");
        if (member.id !== admin.id) ctx.chat.recheckStaff(member.id);
        ctx.adminEvents.changed(member.id);
        await ctx.audit.record(admin, "session.end-member", member.username, null, { ended }, clientIp);
        return { ended };
      },
      { params: idParam },
    );

  const audit = adminRoutes(ctx, "audit")
    .get("/audit-log", async ({ query }) => ({ ...(await ctx.audit.list(query)), actions: await ctx.audit.actions() }), { query: auditQuery })
    .get("/audit-log.csv", async ({ query }) => csvResponse("audit-log", await ctx.audit.csv(query)), { query: auditQuery });

  // Accepting an invite needs no session: the link's token is the proof.
  const invites = new Elysia({ prefix: "/api/admin" })
    .use(clientIpPlugin(ctx.config))
    .get("/invites/:token", ({ params }) => team.inviteDetails(params.token), { params: t.Object({ token: t.String({ maxLength: 100 }) }) })
    .post(
      "/invites/:token/accept",
      async ({ params, body, clientIp, set, request }) => {
        const wait = await invitesPerIp.hit(clientIp);
        if (wait > 0) throw badRequest("Too many attempts. Please try again later.");
        const member = await team.accept(params.token, body.username, body.password);
        const mustEnrol = await team.requiresTwoFactor();
        await startAdminSession(ctx, set, member.id, { address: clientIp, userAgent: request.headers.get("user-agent") });
        await ctx.audit.record(member, "team.join", member.username, null, { role: member.role, email: member.email }, clientIp);
        await tellOwners(`${member.username} (${member.email}) joined the team as ${member.role}.`);
        set.status = 201;
        return { username: member.username, role: member.role, mustEnrol };
      },
      { params: t.Object({ token: t.String({ maxLength: 100 }) }), body: acceptInviteBody },
    );

  return new Elysia().use(owners).use(audit).use(invites);
}
