import { zodResolver } from "@hookform/resolvers/zod";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { emailSchema } from "@contracts/admin";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { FormField } from "@/components/ui/form-field";
import { MailIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { useSendAccessCode } from "../api/send-access-code";

const sendForm = z.object({ email: emailSchema });
type SendForm = z.infer<typeof sendForm>;

/** Asks for the address (pre-filled with the code's own) and e-mails the code there. */
export function SendCodeDialog({ record, onOpenChange }: { record: AccessCodeRecord | null; onOpenChange: (open: boolean) => void }) {
  const send = useSendAccessCode();
  const form = useForm<SendForm>({ resolver: zodResolver(sendForm), defaultValues: { email: "" } });

  useEffect(() => {
    if (record) form.reset({ email: record.email ?? "" });
  }, [record, form]);

  const onSubmit = form.handleSubmit(({ email }) => {
    if (!record) return;
    send.mutate(
      { id: record.id, email },
      {
        onSuccess: (result) => {
          toast({ title: "Email Sent", description: `${record.code} was sent to ${result.email}.` });
          onOpenChange(false);
        },
      },
    );
  });

  return (
    <AdminDialog
      open={record !== null}
      onOpenChange={onOpenChange}
      title="Send access code"
      description={record ? `E-mail ${record.code} with a link to the event.` : ""}
      icon={<MailIcon />}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormField label="E-mail address" type="email" autoComplete="off" maxLength={TEXT_LIMITS.email} error={form.formState.errors.email?.message} {...form.register("email")} />
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={send.isPending}>
            <MailIcon />
            {send.isPending ? "Sending..." : "Send"}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}
