import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { z } from "zod";
import { FORCED_ACCESS_CODE, FORCED_ACCESS_EMAIL, accessCodeSchema, usernameSchema } from "@contracts/access";
import { emailSchema } from "@contracts/admin";
import { ACCESS_MESSAGES } from "@contracts/access-messages";
import { Alert } from "@/components/ui/alert";
import { ContactOrganiser } from "@/components/ui/contact-organiser";
import { FormField } from "@/components/ui/form-field";
import { paths } from "@/config/paths";
import { generatedUsername } from "@/lib/navigation-guard";
import { LOCAL_KEYS, SESSION_KEYS, readLocal, removeSession, writeSession } from "@/lib/storage";
import { enterWithCode, isTestCode, normaliseAccessCode, type VerificationMethod } from "@/lib/viewer-access";

/**
 * The /access form's rules: a code, a chat name the server would take, an e-mail address or none. A test
 * (SCP-) code may leave the username empty: one is made up.
 */
export const accessFormSchema = z
  .object({
    accessCode: accessCodeSchema,
    username: z.string().trim(),
    email: z.union([z.literal(""), emailSchema]),
  })
  .superRefine((values, ctx) => {
    if (values.username === "" && isTestCode(values.accessCode)) return;
    const checked = usernameSchema.safeParse(values.username);
    if (!checked.success) ctx.addIssue({ code: "custom", path: ["username"], message: checked.error.issues[0]?.message ?? "Invalid username" });
  });

type AccessFormValues = z.input<typeof accessFormSchema>;

/** What a code asks for before the server is asked: the forced-access code enters as a made-up SCP-Admin with the test e-mail; other SCP- codes get a made-up name where none is given. */
function entryFor(values: AccessFormValues): { accessCode: string; username: string; email?: string; method: VerificationMethod } {
  const accessCode = normaliseAccessCode(values.accessCode);
  if (accessCode === FORCED_ACCESS_CODE) return { accessCode, username: generatedUsername("SCP-Admin"), email: FORCED_ACCESS_EMAIL, method: "forced-access" };
  const username = values.username.trim();
  if (isTestCode(accessCode)) return { accessCode, username: username || generatedUsername("Tester"), email: values.email.trim() || undefined, method: "test-code" };
  return { accessCode, username, email: values.email.trim() || undefined, method: "access-code" };
}

/** Code, chat name and optional e-mail, checked by the server with this device's fingerprint. */
export function AccessForm({ busy }: { busy: boolean }) {
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AccessFormValues>({
    resolver: zodResolver(accessFormSchema),
    defaultValues: { accessCode: readLocal(LOCAL_KEYS.accessCode) ?? "", username: readLocal(LOCAL_KEYS.username) ?? "", email: readLocal(LOCAL_KEYS.email) ?? "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const entry = entryFor(values);
    if (entry.method === "forced-access") writeSession(SESSION_KEYS.forcedAccess, "true");
    const outcome = await enterWithCode(entry);
    if (outcome.granted) {
      navigate(paths.livestream);
      return;
    }
    if (entry.method === "forced-access") removeSession(SESSION_KEYS.forcedAccess);
    setFailure(outcome.message);
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Enter your access code">
      {failure ? (
        <Alert variant="error">
          {failure}
          {failure === ACCESS_MESSAGES.wrongDevice ? <ContactOrganiser /> : null}
        </Alert>
      ) : null}
      <FormField
        label="Access code"
        placeholder="SKP-XXXX-XXXX-XXXX-XXXX"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        error={errors.accessCode?.message}
        {...form.register("accessCode")}
      />
      <FormField
        label="Chat username"
        placeholder="3 to 20 characters"
        autoComplete="nickname"
        spellCheck={false}
        hint="Everyone in the chat will see this name."
        error={errors.username?.message}
        {...form.register("username")}
      />
      <FormField
        label="Email (optional)"
        type="email"
        placeholder="you@example.com"
        autoComplete="email"
        inputMode="email"
        hint="So we can send your code again if you lose it."
        error={errors.email?.message}
        {...form.register("email")}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting || busy}>
        {isSubmitting ? (
          <>
            <span className="spinner spinner-sm" aria-hidden="true" />
            Verifying...
          </>
        ) : (
          "ENTER THE STREAM"
        )}
      </button>
    </form>
  );
}
