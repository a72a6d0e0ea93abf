import { useEffect, useState } from "react";

/** The access code, big, with a copy button. */
export function AccessCodeReveal({ code }: { code: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (copied === "idle") return;
    const id = setTimeout(() => setCopied("idle"), 2500);
    return () => clearTimeout(id);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };

  return (
    <div className="checkout-code-reveal" data-toast-avoid>
      <p className="checkout-code-reveal-label" id="access-code-label">
        Your access code
      </p>
      <output className="checkout-code-reveal-value" aria-labelledby="access-code-label">
        {code}
      </output>
      <button type="button" className="btn btn-outline checkout-code-reveal-copy" onClick={copy}>
        {copied === "copied" ? "Copied!" : copied === "failed" ? "Select and copy it" : "Copy code"}
      </button>
    </div>
  );
}
