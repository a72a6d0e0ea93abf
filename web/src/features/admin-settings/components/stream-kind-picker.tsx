import type { StreamKind } from "@contracts/stream";
import { LockIcon, TvIcon } from "@/components/ui/icons";
import { KIND_OPTIONS } from "../lib/stream-source-form";

/** The kinds of stream source as a radio group of tiles, each saying whether it protects the video. */
export function StreamKindPicker({ value, onChange }: { value: StreamKind; onChange: (kind: StreamKind) => void }) {
  return (
    <fieldset className="settings-stream-kinds">
      <legend className="field-label">Source</legend>
      <div className="settings-stream-kinds-grid">
        {KIND_OPTIONS.map((option) => (
          <label key={option.kind} className="settings-stream-kind" data-checked={option.kind === value || undefined}>
            <input type="radio" name="stream-kind" value={option.kind} checked={option.kind === value} onChange={() => onChange(option.kind)} />
            <span className="settings-stream-kind-name">{option.label}</span>
            <span className="settings-stream-kind-summary">{option.summary}</span>
            <span className={option.protects ? "settings-stream-kind-badge settings-stream-kind-badge-safe" : "settings-stream-kind-badge"}>
              {option.protects ? <LockIcon width={12} height={12} /> : <TvIcon width={12} height={12} />}
              {option.protects ? "Protected" : "Open link"}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
