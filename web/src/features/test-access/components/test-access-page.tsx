import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@/lib/query";
import type { UseQueryResult } from "@tanstack/react-query";
import type { GeneratedAccessCode } from "@contracts/access";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { KeyIcon } from "@/components/ui/icons";
import { paths } from "@/config/paths";
import { ApiError } from "@/lib/api-client";
import { LOCAL_KEYS, readLocal } from "@/lib/storage";
import { enterWithCheck, isTestCode } from "@/lib/viewer-access";
import { testCodeQueryOptions } from "../api/test-code";

/** The shell variant of the access form: a code, and a name of 3 characters or more. */
const testAccessSchema = z.object({
  accessCode: z.string().trim().min(1, "Access code is required"),
  username: z.string().trim().min(3, "Username must be at least 3 characters"),
});
type TestAccessValues = z.infer<typeof testAccessSchema>;

function TestCodeStatus({ query }: { query: UseQueryResult<GeneratedAccessCode> }) {
  if (query.isPending) {
    return (
      <p className="test-access-code-loading" role="status">
        <span className="spinner spinner-sm" aria-hidden="true" />
        Generating a test code…
      </p>
    );
  }
  if (query.isError) {
    const disabled = query.error instanceof ApiError && query.error.status === 404;
    return disabled ? (
      <Alert title="Test codes are disabled on this server">
        This server takes real payments, so it does not issue test codes. Buy a pass on the home page, or enter a code you already have.
      </Alert>
    ) : (
      <Alert variant="error">A test code could not be generated. Please reload the page to try again.</Alert>
    );
  }
  return (
    <div className="test-access-code">
      <span className="test-access-code-icon" aria-hidden="true">
        <KeyIcon />
      </span>
      <div>
        <p className="test-access-code-label">Your test code</p>
        <p className="test-access-code-value">{query.data.accessCode}</p>
      </div>
    </div>
  );
}

/** A test page that issues a test code and pre-fills it. */
export function TestAccessPage() {
  const [, navigate] = useLocation();
  const testCode = useQuery(testCodeQueryOptions());
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TestAccessValues>({ resolver: zodResolver(testAccessSchema), defaultValues: { accessCode: "", username: readLocal(LOCAL_KEYS.username) ?? "" } });
  const { errors, isSubmitting } = form.formState;
  const generated = testCode.data?.accessCode;

  useEffect(() => {
    if (generated) form.setValue("accessCode", generated);
  }, [generated, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const outcome = await enterWithCheck({ ...values, method: isTestCode(values.accessCode) ? "test-code" : "access-code" });
    if (outcome.granted) navigate(paths.livestream);
    else setFailure(outcome.message);
  });

  return (
    <div className="page page-narrow">
      <div className="page-intro">
        <p className="eyebrow">Testing</p>
        <h1 className="display page-title">Test Access</h1>
        <span className="drip" aria-hidden="true" />
        <p className="page-lead">Try the stream with a generated test code before the doors open.</p>
      </div>
      <div className="card card-blood panel test-access-panel">
        <TestCodeStatus query={testCode} />
        <form className="form" onSubmit={onSubmit} noValidate aria-label="Enter with a test code">
          {failure ? <Alert variant="error">{failure}</Alert> : null}
          <FormField label="Access code" autoComplete="off" autoCapitalize="characters" spellCheck={false} error={errors.accessCode?.message} {...form.register("accessCode")} />
          <FormField label="Username" autoComplete="nickname" spellCheck={false} placeholder="3 to 20 characters" error={errors.username?.message} {...form.register("username")} />
          <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
            {isSubmitting ? "Verifying..." : "Enter the test stream"}
          </button>
        </form>
      </div>
    </div>
  );
}
