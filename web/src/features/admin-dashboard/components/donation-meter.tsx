import { HeartIcon } from "@/components/ui/icons";
import { formatMoney } from "@contracts/money";
import { DashPanel } from "./dash-panel";

/** The current donation against the goal, as a meter (it may pass 100%). */
export function DonationMeter({ current, goal, currency }: { current: number; goal: number; currency: string }) {
  const formatPence = (minor: number) => formatMoney(minor, currency);
  const percent = goal > 0 ? Math.round((current / goal) * 100) : 0;
  return (
    <DashPanel icon={<HeartIcon />} title="Donation goal" aside={<span className="donation-meter-percent">{percent}%</span>}>
      <p className="donation-meter-figures">
        <span className="donation-meter-current">{formatPence(current)}</span>
        <span className="donation-meter-goal"> of {formatPence(goal)}</span>
      </p>
      <div
        className="meter"
        role="meter"
        aria-label="Current donation toward the goal"
        aria-valuemin={0}
        aria-valuemax={goal}
        aria-valuenow={Math.min(current, goal)}
        aria-valuetext={`${formatPence(current)} of ${formatPence(goal)} (${percent}%)`}
      >
        <span className="meter-fill" style={{ width: `${Math.min(100, percent)}%` }} />
      </div>
      <p className="stat-card-detail">{current >= goal ? "Goal reached. The fear meter is full." : `${formatPence(goal - current)} to go.`}</p>
    </DashPanel>
  );
}
