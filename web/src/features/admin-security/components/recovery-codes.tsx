import { CheckIcon, CopyIcon, DownloadIcon } from "@/components/ui/icons";
import { BRAND } from "@/config/event";
import { copyText } from "@/lib/clipboard";

/** The codes as a text file to keep: one a line, with what they are for. */
function codesFile(codes: string[], username: string): string {
  return [
    `${BRAND} admin recovery codes for ${username}`,
    `Made ${new Date().toISOString()}. Each code signs you in once when your phone or key is not at hand.`,
    "",
    ...codes,
    "",
  ].join("\n");
}

/** Ten new recovery codes, shown this once, to copy or download before going on. */
export function RecoveryCodes({ codes, username, doneLabel, onDone }: { codes: string[]; username: string; doneLabel: string; onDone: () => void }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([codesFile(codes, username)], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${BRAND.toLowerCase()}-recovery-codes.txt`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <section className="security-codes" aria-labelledby="recovery-codes-title">
      <div className="security-codes-head">
        <h3 id="recovery-codes-title" className="security-codes-title">
          Save your recovery codes
        </h3>
        <p className="security-muted">
          They are shown <strong>only now</strong>. Each one signs you in once if your phone or key is lost; keep them somewhere safe, away from this device.
        </p>
      </div>
      <ol className="security-codes-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="mono">
            {code}
          </li>
        ))}
      </ol>
      <div className="security-actions">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void copyText(codes.join("\n"), "your recovery codes")}>
          <CopyIcon />
          Copy Codes
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={download}>
          <DownloadIcon />
          Download
        </button>
        <button type="button" className="btn btn-primary btn-sm security-actions-end" onClick={onDone}>
          <CheckIcon />
          {doneLabel}
        </button>
      </div>
    </section>
  );
}
