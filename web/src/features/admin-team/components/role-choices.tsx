import { ROLE_LABELS, ROLE_SUMMARIES, ROLES, type Role } from "@contracts/team";

/** The four roles as radio cards, each with what it may do. */
export function RoleChoices({ value, onChange, name }: { value: Role; onChange: (role: Role) => void; name: string }) {
  return (
    <fieldset className="choice-group team-roles">
      <legend className="field-label">Role</legend>
      {ROLES.map((role) => (
        <label key={role} className="choice">
          <input type="radio" name={name} value={role} checked={value === role} onChange={() => onChange(role)} />
          <span className="choice-title">{ROLE_LABELS[role]}</span>
          <span className="choice-text">{ROLE_SUMMARIES[role]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** A member's role as a badge, each role in its own tone. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className="badge team-role" data-role={role}>
      {ROLE_LABELS[role]}
    </span>
  );
}
