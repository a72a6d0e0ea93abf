import { USED_CODE, USED_RECOVERY_CODE, WRONG_CODE } from "../../contracts/team.ts";

/** What a code given as a second factor is: right (and now used up), not this account's, or one already used. */
export type CodeCheck = "ok" | "wrong" | "used";

/** What the member is told of a code refused as `check` (an authenticator code, or a recovery code). */
export function codeRefusal(check: Exclude<CodeCheck, "ok">, kind: "totp" | "recovery"): string {
  if (check === "wrong") return WRONG_CODE;
  return kind === "totp" ? USED_CODE : USED_RECOVERY_CODE;
}
