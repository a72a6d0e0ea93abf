import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useForm } from "react-hook-form";
import { z } from "zod";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { emailSchema } from "@contracts/admin";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { FormField } from "@/components/ui/form-field";
import { CheckIcon, CopyIcon, KeyIcon } from "@/components/ui/icons";
import { useGenerateAccessCode } from "../api/generate-access-code";

const generateForm = z.object({
  email: z.union([z.literal(""), emailSchema]),
  kind: z.enum(["SKP", "MOD"]),
});
type GenerateForm = z.infer<typeof generateForm>;

interface GenerateCodeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCopy: (record: AccessCodeRecord) => void;
  onGenerated: (record: AccessCodeRecord) => void;
}

/** Makes a regular or moderator code, optionally e-mailing it, then shows it ready to copy. */
export function GenerateCodeDialog({ open, onOpenChange, onCopy, onGenerated }: GenerateCodeDialogProps) {
  const generate = useGenerateAccessCode();
  const form = useForm<GenerateForm>({ resolver: zodResolver(generateForm), defaultValues: { email: "", kind: "SKP" } });
  const created = generate.data;

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      generate.reset();
      form.reset();
    }
  };

  const onSubmit = form.handleSubmit(({ email, kind }) => generate.mutate({ kind, ...(email ? { email } : {}) }, { onSuccess: onGenerated }));

  return (
    <AdminDialog
      open={open}
      onOpenChange={close}
      title={created ? "Access code generated" : "Generate access code"}
      description={
        created
          ? created.email
            ? `It is on its way to ${created.email}. You can also copy it below.`
            : "Copy it and give it to its owner, or send it by e-mail from the list."
          : "A regular code works on one device. A moderator code (MOD-) can moderate the chat and is not tied to a device."
      }
      icon={created ? <CheckIcon /> : <KeyIcon />}
    >
      {created ? (
        <div className="codes-generated">
          <p className="codes-generated-code mono" data-testid="generated-code">
            {created.code}
          </p>
          <div className="admin-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={() => generate.reset()}>
              Generate another
            </button>
            <button type="button" className="btn btn-outline" onClick={() => onCopy(created)}>
              <CopyIcon />
              Copy code
            </button>
            <button type="button" className="btn btn-primary" onClick={() => close(false)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <fieldset className="choice-group">
            <legend className="field-label">Kind</legend>
            <label className="choice">
              <input type="radio" value="SKP" {...form.register("kind")} />
              <span className="choice-title">Regular</span>
              <span className="choice-text">SKP- · one device</span>
            </label>
            <label className="choice">
              <input type="radio" value="MOD" {...form.register("kind")} />
              <span className="choice-title">Moderator</span>
              <span className="choice-text">MOD- · moderates chat</span>
            </label>
          </fieldset>
          <FormField
            label="E-mail (optional)"
            type="email"
            autoComplete="off"
            maxLength={TEXT_LIMITS.email}
            placeholder="viewer@example.com"
            hint="Leave empty to only generate the code."
            error={form.formState.errors.email?.message}
            {...form.register("email")}
          />
          <div className="admin-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={() => close(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={generate.isPending}>
              {generate.isPending ? "Generating..." : "Generate"}
            </button>
          </div>
        </form>
      )}
    </AdminDialog>
  );
}
