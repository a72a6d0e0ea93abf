import { HeartIcon } from "@/components/ui/stream-icons";
import { formatMoney } from "@contracts/money";
import { DashPanel } from "./dash-panel";

/** The current donation against the goal, as a meter (it may pass 100%). */
export function DonationMeter({ current, goal, currency }: { current: number; goal: number; currency: string }) {
  const percent = goal > 0 ? Math.round((current / goal) * 100) : 0;
  return (
    <DashPanel icon={<HeartIcon />} title="Donation goal" aside={<span className="dash-donation-meter-percent">{percent}%</span>}>
      <p className="dash-donation-meter-figures">
        <span className="dash-donation-meter-current">{formatMoney(current, currency)}</span>
        <span className="dash-donation-meter-goal"> of {formatMoney(goal, currency)}</span>
      </p>
      <div
        className="dash-meter"
        role="meter"
        aria-label="Current donation toward the goal"
        aria-valuemin={0}
        aria-valuemax={goal}
        aria-valuenow={Math.min(current, goal)}
        aria-valuetext={`${formatMoney(current, currency)} of ${formatMoney(goal, currency)} (${percent}%)`}
      >
        <span className="dash-meter-fill" style={{ width: `${Math.min(100, percent)}%` }} />
      </div>
      <p className="dash-stat-card-detail">{current >= goal ? "Goal reached. The fear meter is full." : `${formatMoney(goal - current, currency)} to go.`}</p>
    </DashPanel>
  );
}
