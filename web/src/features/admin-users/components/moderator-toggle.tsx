import type { UserRecord } from "@contracts/admin-panel";
import { ShieldIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { useCan } from "@/lib/admin-auth";
import { useSetModerator } from "../api/set-moderator";

/** The moderator badge of a user: by MOD- code (fixed), or made in the panel. */
export function ModeratorBadge({ user }: { user: UserRecord }) {
  if (user.moderator === "code")
    return (
      <span className="badge badge-mod" title="Moderator by a MOD- code">
        Mod · code
      </span>
    );
  if (user.moderator === "panel") return <span className="badge badge-mod">Moderator</span>;
  return null;
}

/**
 * Make moderator / Remove moderator (an icon button in the table, a labelled one on cards); a MOD- code's
 * moderator is changed by revoking the code instead.
 */
export function ModeratorToggle({ user, compact = false }: { user: UserRecord; compact?: boolean }) {
  const setModerator = useSetModerator();
  const mayChange = useCan("moderators");
  if (user.moderator === "code" || !mayChange) return null;
  const making = user.moderator === null;
  const onClick = () =>
    setModerator.mutate(
      { id: user.id, isModerator: making },
      {
        onSuccess: () =>
          toast({
            title: making ? "Moderator Added" : "Moderator Removed",
            description: making ? `${user.username} can moderate the chat now.` : `${user.username} is no longer a moderator.`,
          }),
      },
    );
  const label = making ? "Make moderator" : "Remove moderator";
  return (
    <button
      type="button"
      className={`btn btn-sm ${making ? "btn-outline" : "btn-primary"}${compact ? " btn-icon" : ""}`}
      onClick={onClick}
      disabled={setModerator.isPending}
      aria-label={compact ? (making ? `Make ${user.username} a moderator` : `Remove ${user.username} as moderator`) : undefined}
      title={compact ? label : undefined}
    >
      <ShieldIcon />
      {compact ? null : label}
    </button>
  );
}
