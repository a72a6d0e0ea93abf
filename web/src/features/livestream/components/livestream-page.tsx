import { StreamLayout } from "@/components/layouts/stream-layout";
import { SendIcon } from "@/components/ui/icons";
import { DEFAULT_EVENT_TITLE } from "@/config/event";
import { useLivestreamSettings } from "@/lib/livestream-settings";

/** The viewer's stream screen: player and live chat. */
export function LivestreamPage() {
  const settings = useLivestreamSettings();
  return (
    <StreamLayout
      title={settings.data?.eventTitle || DEFAULT_EVENT_TITLE}
      player={
        <div className="stream-player" role="status">
          <div className="spinner" aria-hidden="true" />
          <p className="stream-player-title">Loading Stream</p>
          <p className="stream-player-text">Please wait...</p>
        </div>
      }
      chat={
        <div className="chat-panel">
          <div className="chat-panel-header">
            <h2 className="chat-panel-title">LIVE CHAT</h2>
            <span className="chat-panel-status">Connecting</span>
          </div>
          <p className="chat-panel-messages">Chat messages will appear here</p>
          <form className="chat-panel-form" onSubmit={(e) => e.preventDefault()}>
            <label htmlFor="chat-message" className="sr-only">
              Message
            </label>
            <input id="chat-message" className="input" placeholder="Connecting..." maxLength={200} disabled />
            <button type="submit" className="btn btn-primary btn-icon" disabled aria-label="Send">
              <SendIcon />
            </button>
          </form>
        </div>
      }
    />
  );
}
