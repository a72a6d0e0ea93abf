import { StreamLayout, StreamStat } from "@/components/layouts/stream-layout";
import { EyeIcon, HeartIcon, SendIcon } from "@/components/ui/icons";
import { formatPence } from "@/lib/money";
import "./layout-test.css";

// Sample numbers of the mock only.
const SAMPLE = { viewers: 2500, hearts: 1250, donationPence: 2500, goalPence: 5000 };

/** A static mock of the stream page with the stream offline and the chat not yet open. */
export function LayoutTestPage() {
  const percent = Math.min(100, Math.round((SAMPLE.donationPence / SAMPLE.goalPence) * 100));
  return (
    <StreamLayout
      title="Layout Test"
      stats={
        <>
          <StreamStat icon={<EyeIcon />} label="Viewers" value={SAMPLE.viewers.toLocaleString("en-GB")} />
          <StreamStat icon={<HeartIcon />} label="Hearts" value={SAMPLE.hearts.toLocaleString("en-GB")} />
        </>
      }
      player={
        <div className="stream-player">
          <p className="stream-player-title">Stream Offline</p>
          <p className="stream-player-text">The event will begin soon...</p>
        </div>
      }
      belowPlayer={
        <section className="fear-meter card" aria-labelledby="fear-meter-label">
          <div className="fear-meter-head">
            <h2 id="fear-meter-label" className="fear-meter-label">
              FEAR METER
            </h2>
            <p className="fear-meter-amount">
              {formatPence(SAMPLE.donationPence)} <span className="muted">/ {formatPence(SAMPLE.goalPence)} goal</span>
            </p>
          </div>
          <div
            className="fear-meter-track"
            role="progressbar"
            aria-labelledby="fear-meter-label"
            aria-valuemin={0}
            aria-valuemax={SAMPLE.goalPence / 100}
            aria-valuenow={SAMPLE.donationPence / 100}
            aria-valuetext={`${formatPence(SAMPLE.donationPence)} of ${formatPence(SAMPLE.goalPence)}`}
          >
            <div className="fear-meter-fill" style={{ width: `${percent}%` }} />
          </div>
        </section>
      }
      chat={
        <div className="chat-panel">
          <div className="chat-panel-header">
            <h2 className="chat-panel-title">LIVE CHAT</h2>
            <span className="chat-panel-status">Offline</span>
          </div>
          <p className="chat-panel-messages">Chat will be active during the stream</p>
          <form className="chat-panel-form" onSubmit={(e) => e.preventDefault()}>
            <label htmlFor="layout-test-message" className="sr-only">
              Message
            </label>
            <input id="layout-test-message" className="input" placeholder="Chat is closed" disabled />
            <button type="submit" className="btn btn-primary btn-icon" disabled aria-label="Send">
              <SendIcon />
            </button>
          </form>
        </div>
      }
    />
  );
}
