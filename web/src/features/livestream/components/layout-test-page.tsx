import { formatCount } from "@/lib/numbers";
import { EyeIcon, GiftIcon, HeartIcon, SendIcon } from "@/components/ui/stream-icons";
import { ChatPanel, FearMeter, StreamLayout, StreamStat } from "./stream-layout";

// Sample numbers of the mock only.
const SAMPLE = { viewers: 2500, hearts: 1250, donationPence: 2500, goalPence: 5000 };

/** A static mock of the stream page with the stream offline and the chat not yet open. */
export function LayoutTestPage() {
  return (
    <StreamLayout
      title="Layout Test"
      player={
        <div className="stream-player">
          <p className="stream-player-title">Stream Offline</p>
          <p className="stream-player-text">The event will begin soon...</p>
        </div>
      }
      stats={
        <>
          <StreamStat icon={<EyeIcon />} label="Viewers" value={formatCount(SAMPLE.viewers)} />
          <span className="stream-stat-hearts">
            <StreamStat icon={<HeartIcon />} label="Hearts" value={formatCount(SAMPLE.hearts)} />
          </span>
        </>
      }
      belowPlayer={<FearMeter current={SAMPLE.donationPence} goal={SAMPLE.goalPence} />}
      chat={
        <ChatPanel
          status={<span className="stream-chat-status">Offline</span>}
          footer={
            <>
              <form className="stream-chat-form" onSubmit={(e) => e.preventDefault()}>
                <label htmlFor="layout-test-message" className="sr-only">
                  Chat message
                </label>
                <input id="layout-test-message" className="input" placeholder="Chat is closed" disabled />
                <button type="submit" className="btn btn-primary btn-icon" disabled aria-label="Send message">
                  <SendIcon />
                </button>
              </form>
              <div className="stream-chat-actions">
                <button type="button" className="btn btn-outline stream-donate-button" disabled>
                  <GiftIcon />
                  Donate
                </button>
              </div>
            </>
          }
        >
          <p className="stream-chat-empty">Chat will be active during the stream</p>
        </ChatPanel>
      }
    />
  );
}
