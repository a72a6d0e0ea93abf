/**
 * Step-up: an admin call that moves money or keys is refused (403 `{ reauth: true }`) when the member last
 * gave their password or a second factor more than ten minutes ago. The API client then asks the prompt
 * registered here (the panel's "Confirm it's you" dialog) and, once the member has confirmed, sends the call
 * again. Calls refused together wait for the same one prompt.
 */

/** Resolves true once the member proved it is them (`POST /api/admin/reauth` succeeded), false if they gave up. */
export type StepUpPrompt = () => Promise<boolean>;

let prompt: StepUpPrompt | null = null;
let pending: Promise<boolean> | null = null;

/** Registers the dialog that asks; answers the function that unregisters it. */
export function setStepUpPrompt(next: StepUpPrompt): () => void {
  prompt = next;
  return () => {
    if (prompt === next) prompt = null;
  };
}

/** Asks the member to confirm it's them (once for every call waiting); false when no prompt is mounted. */
export function confirmIdentity(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  pending ??= prompt().finally(() => {
    pending = null;
  });
  return pending;
}

/** What a 403 answer asks of the member: a fresh proof (`reauth`), or two factors set up first (`enrol`). */
export function refusalOf(bodyText: string): { reauth: boolean; enrol: boolean } {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === "object") return { reauth: "reauth" in parsed && parsed.reauth === true, enrol: "enrol" in parsed && parsed.enrol === true };
  } catch {
    // not JSON: a plain refusal
  }
  return { reauth: false, enrol: false };
}
