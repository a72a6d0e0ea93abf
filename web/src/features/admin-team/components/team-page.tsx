import { useState } from "react";
import type { TeamMember, TeamView } from "@contracts/team";
import { AdminSection } from "@/components/admin/admin-section";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { LoadFailed } from "@/components/admin/load-failed";
import { Switch } from "@/components/admin/switch";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { LogOutIcon, MailIcon, PlusIcon, ShieldIcon, UsersIcon, UserXIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { toast } from "@/hooks/use-toast";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useEndMemberSessions, useRemoveMember, useRequireTwoFactor, useTeam } from "../api/team";
import { InviteDialog } from "./invite-dialog";
import { InvitesList } from "./invites-list";
import { MembersList, type MemberAction } from "./members-list";
import { RoleDialog } from "./role-dialog";

function RequireTwoFactor({ team }: { team: TeamView }) {
  const requireTwoFactor = useRequireTwoFactor();
  const without = team.members.filter((m) => !m.twoFactor).length;
  return (
    <AdminSection icon={<ShieldIcon />} title="Two-factor sign-in" text="A password alone is not enough for the people who handle the event's money and keys.">
      <Switch
        label="Require two-factor sign-in for the whole team"
        description={
          without === 0
            ? "Everyone on the team has set it up."
            : `${without === 1 ? "1 member has" : `${without} members have`} not set it up yet; when it is required, they must do so at their next sign-in before anything else.`
        }
        checked={team.requireTwoFactor}
        disabled={requireTwoFactor.isPending}
        onCheckedChange={(required) =>
          requireTwoFactor.mutate(required, {
            onSuccess: () =>
              toast({
                title: required ? "Two-factor sign-in required" : "Two-factor sign-in optional",
                description: required ? "Members without it set it up at their next sign-in." : "Each member chooses for themself.",
              }),
          })
        }
      />
    </AdminSection>
  );
}

/** The team (owners): members and their roles, invites, two factors for all, and each member's sessions. */
export function TeamPage() {
  const team = useTeam();
  useQueryErrorToast(team, "Failed to load the team.");
  const remove = useRemoveMember();
  const endSessions = useEndMemberSessions();
  const [inviting, setInviting] = useState(false);
  const [changingRole, setChangingRole] = useState<TeamMember | null>(null);
  const [confirming, setConfirming] = useState<{ member: TeamMember; action: "sessions" | "remove" } | null>(null);

  const onAction = (member: TeamMember, action: MemberAction) => {
    if (action === "role") setChangingRole(member);
    else setConfirming({ member, action });
  };

  const confirm = () => {
    if (!confirming) return;
    const { member, action } = confirming;
    if (action === "remove") {
      remove.mutate(member.id, {
        onSuccess: () => {
          setConfirming(null);
          toast({ title: "Member removed", description: `${member.username} can no longer sign in.` });
        },
      });
    } else {
      endSessions.mutate(member.id, {
        onSuccess: ({ ended }) => {
          setConfirming(null);
          toast({ title: "Sessions ended", description: `${member.isYou ? "Your other" : `${member.username}'s`} sessions ended: ${ended}.` });
        },
      });
    }
  };

  const members = team.data?.members ?? [];
  return (
    <>
      <AdminPageHeader
        title="Team"
        description="Who helps run the event, and what each may do. Invite people by e-mail; every change lands in the audit log."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setInviting(true)}>
            <PlusIcon />
            Invite Member
          </button>
        }
      />
      <div className="team-page">
        <section className="card list-panel" aria-labelledby="team-members-heading">
          <div className="team-panel-head">
            <h2 id="team-members-heading" className="team-panel-title">
              Members
            </h2>
            {team.data ? <p className="admin-toolbar-count">{members.length === 1 ? "1 member" : `${members.length} members`}</p> : null}
          </div>
          {team.isPending ? (
            <PageLoader label="Loading the team…" />
          ) : team.isError ? (
            <LoadFailed icon={<UsersIcon />} title="The team could not be loaded" onRetry={() => void team.refetch()} />
          ) : (
            <MembersList members={members} onAction={onAction} />
          )}
        </section>
        {team.data ? (
          <div className="team-columns">
            <RequireTwoFactor team={team.data} />
            <section className="card list-panel" aria-labelledby="team-invites-heading">
              <div className="team-panel-head">
                <h2 id="team-invites-heading" className="team-panel-title">
                  Open invites
                </h2>
              </div>
              {team.data.invites.length === 0 ? (
                <EmptyState icon={<MailIcon />} title="No open invites">
                  Invite someone and their link waits here until they use it or it expires.
                </EmptyState>
              ) : (
                <InvitesList invites={team.data.invites} />
              )}
            </section>
          </div>
        ) : null}
      </div>
      <InviteDialog open={inviting} onOpenChange={setInviting} />
      <RoleDialog member={changingRole} onClose={() => setChangingRole(null)} />
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={
          confirming?.action === "remove"
            ? `Remove ${confirming.member.username}?`
            : confirming?.member.isYou
              ? "End your other sessions?"
              : `End ${confirming?.member.username ?? ""}'s sessions?`
        }
        description={
          confirming?.action === "remove"
            ? `${confirming.member.username} is signed out everywhere and can no longer sign in. Invite them again to bring them back.`
            : confirming?.member.isYou
              ? "Every browser you are signed in to, except this one, is signed out."
              : "They are signed out of every browser and must sign in again."
        }
        confirmLabel={confirming?.action === "remove" ? "Remove Member" : "End Sessions"}
        pendingLabel={confirming?.action === "remove" ? "Removing..." : "Ending..."}
        pending={remove.isPending || endSessions.isPending}
        icon={confirming?.action === "remove" ? <UserXIcon /> : <LogOutIcon />}
        onConfirm={confirm}
      />
    </>
  );
}
