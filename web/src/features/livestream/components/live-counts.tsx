import { useSignals } from "@preact/signals-react/runtime";
import { useState, type RefObject } from "react";
import { formatCount } from "@/lib/numbers";
import { EyeIcon, HeartIcon, VolumeIcon, VolumeOffIcon } from "@/components/ui/stream-icons";
import { useEventCurrency } from "@/lib/money";
import type { LiveStore } from "../stores/live-store";
import { sendMuteToPlayer } from "../utils/player-messages";
import { FearMeter, StreamStat } from "./stream-layout";

/** Live viewers; until the first count arrives, the number the settings gave. */
export function ViewerCount({ store, initial }: { store: LiveStore; initial: number }) {
  useSignals();
  return <StreamStat icon={<EyeIcon />} label="Viewers" value={formatCount(store.viewerCount.value ?? initial)} />;
}

export function HeartCount({ store }: { store: LiveStore }) {
  useSignals();
  return (
    <span className="stream-stat-hearts">
      <StreamStat icon={<HeartIcon />} label="Hearts" value={formatCount(store.heartCount.value ?? 0)} />
    </span>
  );
}

/** The donation goal meter: live progress, or the settings' numbers until the first update. */
export function LiveMeter({ store, initial }: { store: LiveStore; initial: { current: number; goal: number } }) {
  useSignals();
  const progress = store.donation.value ?? initial;
  return <FearMeter current={progress.current} goal={progress.goal} currency={useEventCurrency()} />;
}

/** Who this viewer is in the chat (the name the server knows the socket by), with the staff badge their lines carry. */
export function WatchingAs({ store, username, isAdmin = false }: { store: LiveStore; username: string; isAdmin?: boolean }) {
  useSignals();
  const badge = isAdmin ? "ADMIN" : store.isModerator.value ? "MOD" : null;
  return (
    <>
      <span className="stream-watching">
        Watching as <strong className="stream-viewer-name">{store.username.value ?? username}</strong>
      </span>
      {badge ? (
        <span className="stream-mod-badge" data-staff={isAdmin ? "admin" : "moderator"}>
          {badge}
        </span>
      ) : null}
    </>
  );
}

/** Asks the player to mute or unmute; a player that cannot be told is only logged. */
export function MuteButton({ frameRef, embedUrl }: { frameRef: RefObject<HTMLIFrameElement | HTMLVideoElement | null>; embedUrl: string }) {
  const [muted, setMuted] = useState(false);
  const toggle = () => {
    try {
      sendMuteToPlayer(frameRef.current, embedUrl, !muted);
      setMuted(!muted);
    } catch (error) {
      console.error("Could not send the mute message to the stream player", error);
    }
  };
  return (
    <button type="button" className="btn stream-control" onClick={toggle} aria-pressed={muted} disabled={!embedUrl}>
      {muted ? <VolumeOffIcon /> : <VolumeIcon />}
      <span>{muted ? "Unmute" : "Mute"}</span>
    </button>
  );
}
