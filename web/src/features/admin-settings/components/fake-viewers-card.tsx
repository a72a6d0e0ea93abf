import { useState, type KeyboardEvent } from "react";
import { FAKE_VIEWERS_MAX } from "@contracts/admin-panel";
import { AdminSectionHead } from "@/components/admin/admin-section";
import { Switch } from "@/components/admin/switch";
import { EyeIcon } from "@/components/ui/stream-icons";
import { toast } from "@/hooks/use-toast";
import { useAdminStats } from "@/lib/admin-stats";
import { formatCount } from "@/lib/numbers";
import { useSetFakeViewers } from "../api/fake-viewers";

/** A whole number from 0 to 5000, or null. */
function parseTarget(text: string): number | null {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= FAKE_VIEWERS_MAX ? n : null;
}

/**
 * Fake viewers: on/off and a target (0–5000); the shown count moves there about 100 at a time. It sits
 * inside the settings form on the page but saves on its own, so Enter here applies the target instead.
 */
export function FakeViewersCard({ initialEnabled, initialTarget }: { initialEnabled: boolean; initialTarget: number }) {
  const stats = useAdminStats();
  const setFakeViewers = useSetFakeViewers();
  const [enabled, setEnabled] = useState(initialEnabled);
  const [target, setTarget] = useState(String(initialTarget));

  const apply = (nextEnabled: boolean) => {
    const targetViewers = parseTarget(target);
    if (nextEnabled && targetViewers === null) {
      toast({ variant: "destructive", title: "Invalid input", description: "Please enter a valid number of viewers" });
      return;
    }
    setFakeViewers.mutate(nextEnabled ? { enabled: true, targetViewers: targetViewers! } : { enabled: false }, {
      onSuccess: (result) => {
        setEnabled(result.fakeViewerMode);
        setTarget(String(result.fakeViewersTarget));
      },
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (enabled) apply(true);
  };

  const current = stats.data?.currentFakeViewers;
  return (
    <section className="card admin-section settings-fake-viewers" aria-labelledby="fake-viewers-heading">
      <AdminSectionHead
        id="fake-viewers-heading"
        icon={<EyeIcon />}
        title="Fake viewers"
        text="Adds to the viewer count everyone sees. Changes are gradual, about 100 at a time."
        saves="Saves at once: the switch and Update Target"
      />
      <div className="form">
        <Switch
          label="Fake viewers enabled"
          description={enabled ? "The viewer count includes fake viewers." : "Only real viewers are counted."}
          checked={enabled}
          disabled={setFakeViewers.isPending}
          onCheckedChange={apply}
        />
        <div className="settings-fake-viewers-target">
          <div className="field">
            <label className="field-label" htmlFor="fake-viewers-target">
              Target viewers
            </label>
            <input
              id="fake-viewers-target"
              className="input"
              type="number"
              inputMode="numeric"
              min={0}
              max={FAKE_VIEWERS_MAX}
              step={1}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              onKeyDown={onKeyDown}
              aria-describedby="fake-viewers-target-hint"
            />
            <p id="fake-viewers-target-hint" className="field-hint">
              0 to {formatCount(FAKE_VIEWERS_MAX)}.
            </p>
          </div>
          <button type="button" className="btn btn-outline" onClick={() => apply(true)} disabled={setFakeViewers.isPending || !enabled}>
            {setFakeViewers.isPending ? "Updating..." : "Update Target"}
          </button>
        </div>
        <p className="settings-fake-viewers-status" aria-live="polite" data-testid="fake-viewers-status">
          {stats.data ? (
            <>
              Showing <strong>{formatCount(stats.data.currentFakeViewers)}</strong> fake {current === 1 ? "viewer" : "viewers"} now
              {stats.data.fakeViewerMode ? (
                <>
                  {" "}
                  · target <strong>{formatCount(stats.data.fakeViewersTarget)}</strong>
                </>
              ) : null}{" "}
              · {formatCount(stats.data.viewerCount)} in the viewer count
            </>
          ) : (
            "Loading the current count…"
          )}
        </p>
      </div>
    </section>
  );
}
