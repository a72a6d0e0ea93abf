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
    <div className="code-reveal" data-toast-avoid>
      <p className="code-reveal-label" id="access-code-label">
        Your access code
      </p>
      <output className="code-reveal-value" aria-labelledby="access-code-label">
        {code}
      </output>
      <button type="button" className="btn btn-outline code-reveal-copy" onClick={copy}>
        {copied === "copied" ? "Copied!" : copied === "failed" ? "Select and copy it" : "Copy code"}
      </button>
    </div>
  );
}
