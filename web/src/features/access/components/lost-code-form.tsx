import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@/lib/query";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { lostCodeBody, type LostCodeBody } from "@contracts/access";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { serverErrorMessage } from "@/lib/api-client";
import { LOCAL_KEYS, readLocal } from "@/lib/storage";
import { requestLostCode } from "../api/lost-code";

/** 'Lost your code?': the codes bought with an e-mail address are sent to it again. */
export function LostCodeForm() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const send = useMutation({ mutationFn: requestLostCode, meta: { errorToast: false } });
  const form = useForm<LostCodeBody>({ resolver: zodResolver(lostCodeBody), defaultValues: { email: readLocal(LOCAL_KEYS.email) ?? "" } });
  const onSubmit = form.handleSubmit((values) => send.mutate(values));

  return (
    <div className="access-lost-code">
      <button type="button" className="access-lost-code-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        Lost your code?
      </button>
      {open ? (
        <div id={panelId} className="access-lost-code-panel">
          {send.isSuccess ? (
            <Alert title="Check your inbox">{send.data}</Alert>
          ) : (
            <form className="form" onSubmit={onSubmit} noValidate>
              <p className="access-lost-code-lead">Enter the e-mail address you bought your pass with and we will send your code again.</p>
              {send.isError ? <Alert variant="error">{serverErrorMessage(send.error) ?? "Something went wrong. Please try again."}</Alert> : null}
              <FormField label="Your e-mail" type="email" autoComplete="email" inputMode="email" error={form.formState.errors.email?.message} {...form.register("email")} />
              <button type="submit" className="btn btn-outline btn-block" disabled={send.isPending}>
                {send.isPending ? "Sending..." : "Send my code"}
              </button>
            </form>
          )}
        </div>
      ) : null}
    </div>
  );
}
