/** The signed-in admin's initial in a blood-red disc. */
export function AdminAvatar({ username, small = false }: { username: string; small?: boolean }) {
  return (
    <span className={small ? "admin-avatar admin-avatar-sm" : "admin-avatar"} aria-hidden="true">
      {username.charAt(0).toUpperCase()}
    </span>
  );
}
