import { useSignalEffect } from "@preact/signals-react";
import { useQueryClient } from "@/lib/query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "wouter";
import { DEVICE_RESET_MESSAGE, WS_CLOSE_SESSION_ENDED } from "@contracts/chat-limits";
import type { PublicLivestreamSettings } from "@contracts/settings";
import { DEFAULT_CURRENCY, formatAmount } from "@contracts/money";
import type { PaymentIntentState } from "@contracts/payments";
import { DEFAULT_EVENT_TITLE } from "@/config/event";
import { paths } from "@/config/paths";
import { ACCESS_DENIED_TITLE } from "@/lib/access-verdicts";
import { LOCAL_KEYS, removeLocal, removeSession, SESSION_KEYS } from "@/lib/storage";
import { toast, toastCouldNotOpen } from "@/hooks/use-toast";
import { lazyPart, useLazyPart } from "@/hooks/use-lazy-part";
import { streamIsLive } from "../utils/stream-is-live";
import { livestreamSettingsQueryKey, useLivestreamSettings } from "@/lib/livestream-settings";
import { useModeratorStatus } from "../api/get-moderator-status";
import { playbackQueryKey, usePlayback } from "../api/get-playback";
import { useLiveConnection } from "../hooks/use-live-connection";
import { usePlayerPolicy } from "../hooks/use-player-policy";
import { useStreamAccess } from "../hooks/use-stream-access";
import { LiveStore } from "../stores/live-store";
import { donationsClosedReason } from "../utils/donations-closed";
import { HeartCount, LiveMeter, MuteButton, ViewerCount, WatchingAs } from "./live-counts";
import { LiveChat } from "./live-chat";
import { StreamLayout } from "./stream-layout";
import { StreamPlayer } from "./stream-player";
import { importFresh } from "@/lib/app-version";
import { withStylesheets } from "@/lib/stylesheets";
import { RequireAccessCode } from "@/components/guards/require-access-code";
import { PageLoader } from "@/components/ui/page-loader";
import donationStyles from "./donation-dialog.css?url";
import replayStyles from "./replay.css?url";

// The donation dialogs (and the payment code behind them) load when a viewer first goes to donate.
// Fetched ahead when the viewer reaches for the button; opening it reloads the page if the server was upgraded since.
const loadDonationDialog = withStylesheets(() => import("./donation-dialog"), donationStyles);
const loadDonation = () => importFresh(loadDonationDialog);
// The recording and its chat as it happened, after the night: what a live viewer never needs, with its styles.
// Tried again while the connection is down, the loader showing until it comes.
const ReplayStream = lazyPart(
  () => importFresh(withStylesheets(() => import("./replay-stream"), replayStyles)),
  (m) => m.ReplayStream,
  <PageLoader fullScreen />,
);

export const SETTINGS_POLL_MS = 30_000;
/** The meter's goal before the settings load: the default £50. */
const DEFAULT_GOAL_PENCE = 5000;

/**
 * The viewer's stream screen: verifies access, then shows the player, the live counts, the donation
 * meter and the live chat. Live state lives in signals, so counts and hearts repaint only themselves.
 */
export function LivestreamPage() {
  const [store] = useState(() => new LiveStore());
  const { access, retry: retryAccess } = useStreamAccess();
  const verified = access.status === "verified";
  // A signed-in admin: no code, the admin's own name, an admin's powers (ban and refund too).
  const isAdmin = access.status === "verified" && access.role === "admin";
  const [, navigate] = useLocation();
  const connection = useLiveConnection(store, access);
  // Until access is checked there is no chat to reconnect: RECONNECT asks the server about the access again.
  const chatConnection = useMemo(() => (verified ? connection : { ...connection, reconnect: retryAccess }), [verified, connection, retryAccess]);
  const accessFailing = access.status === "unreachable" && access.failing;
  const settings = useLivestreamSettings({ refetchInterval: SETTINGS_POLL_MS });
  const moderator = useModeratorStatus(verified);
  const queryClient = useQueryClient();
  const playback = usePlayback(verified);
  usePlayerPolicy(verified ? (playback.data?.url ?? "") : "");
  const playerRef = useRef<HTMLIFrameElement | HTMLVideoElement>(null);
  const [donating, setDonating] = useState(false);
  // Stays mounted once opened: the payment dialog it leads to lives inside it.
  const [donationMounted, setDonationMounted] = useState(false);
  // A dialog whose code could not be fetched (the connection dropped) does not open; the next tap fetches it again.
  const donation = useLazyPart(loadDonation, {
    wanted: donationMounted,
    onFailed: () => {
      setDonating(false);
      setDonationMounted(false);
      toastCouldNotOpen("donation");
    },
  });

  useEffect(() => () => store.dispose(), [store]);

  // The embed URL is only given to a viewer with a session, which verification has just opened.
  useEffect(() => {
    if (verified) void queryClient.invalidateQueries({ queryKey: livestreamSettingsQueryKey });
  }, [verified, queryClient]);

  useEffect(() => {
    if (moderator.data?.isModerator) store.isModerator.value = true;
  }, [moderator.data, store]);

  // An admin reset this code's device: this device's session is over, and the code is forgotten here (or
  // /access would bind it again at once); the page goes back to /access, the name kept.
  useSignalEffect(() => {
    if (store.connection.value.removedWith !== WS_CLOSE_SESSION_ENDED) return;
    toast({ variant: "destructive", title: ACCESS_DENIED_TITLE, description: DEVICE_RESET_MESSAGE });
    navigate(paths.access, { replace: true });
    removeLocal(LOCAL_KEYS.accessCode);
    removeSession(SESSION_KEYS.accessVerified);
  });

  // Banned or the pass refunded while the donation dialog is open: it closes, and the chat says why.
  useSignalEffect(() => {
    if (donationsClosedReason(store.connection.value) !== null) setDonating(false);
  });

  // Settings the admin saves reach the page at once, between polls.
  useSignalEffect(() => {
    const update = store.settings.value;
    if (!update) return;
    queryClient.setQueryData<PublicLivestreamSettings>(livestreamSettingsQueryKey, (old) => (old ? { ...old, ...update } : old));
    // The stream source may have changed with them.
    void queryClient.invalidateQueries({ queryKey: playbackQueryKey });
  });

  // A new phase of the night (polled, or pushed with the settings): what there is to play may have changed with it.
  const phase = settings.data?.phase;
  const shownPhase = useRef(phase);
  useEffect(() => {
    if (shownPhase.current === phase) return;
    const first = shownPhase.current === undefined;
    shownPhase.current = phase;
    if (!first) void queryClient.invalidateQueries({ queryKey: playbackQueryKey });
  }, [phase, queryClient]);

  const donated = (pounds: number, intent: PaymentIntentState) => {
    connection.send({ type: "donation", paymentIntentId: intent.id, amount: pounds, username: access.status === "verified" ? access.username : undefined });
    toast({ title: "Thank You!", description: `Your donation of ${formatAmount(pounds * 100, settings.data?.currency ?? DEFAULT_CURRENCY)} has been received.` });
  };

  const data = settings.data;
  const title = data?.eventTitle || DEFAULT_EVENT_TITLE;
  const reloadPlayback = () => void queryClient.invalidateQueries({ queryKey: playbackQueryKey });
  const watchingAs = access.status === "verified" ? <WatchingAs store={store} username={access.username} isAdmin={isAdmin} /> : null;

  // After the night: the recording and its chat as it happened, or word that the replay has ended.
  if (verified && playback.data?.kind === "replay") return <ReplayStream title={title} playback={playback.data} headerEnd={watchingAs} onReload={reloadPlayback} />;

  return (
    <>
      <StreamLayout
        title={title}
        live={streamIsLive(data, verified ? playback.data?.url : undefined)}
        headerEnd={watchingAs}
        player={
          <StreamPlayer
            playback={verified && data?.isActive !== false ? playback.data : undefined}
            offline={data?.isActive === false}
            onBreak={data?.phase === "break"}
            title={title}
            startDate={data?.startDate}
            playerRef={playerRef}
            store={store}
            onReload={reloadPlayback}
          />
        }
        stats={
          <>
            <ViewerCount store={store} initial={data?.viewerCount ?? 0} />
            <HeartCount store={store} />
            <span className="stream-stats-spacer" />
            <MuteButton frameRef={playerRef} embedUrl={verified ? (playback.data?.url ?? "") : ""} />
          </>
        }
        belowPlayer={<LiveMeter store={store} initial={{ current: data?.currentDonation ?? 0, goal: data?.donationGoal ?? DEFAULT_GOAL_PENCE }} />}
        chat={
          <LiveChat
            store={store}
            connection={chatConnection}
            isAdmin={isAdmin}
            verifying={access.status === "verifying" || (access.status === "unreachable" && !accessFailing)}
            verificationFailed={accessFailing}
            onDonate={() => {
              setDonationMounted(true);
              setDonating(true);
            }}
            onDonateIntent={() => void loadDonationDialog().catch(() => {})}
          />
        }
      />
      {!donationMounted ? null : donation ? (
        <donation.DonationDialog open={donating} onOpenChange={setDonating} onDonated={donated} />
      ) : (
        <div className="stream-dialog-overlay stream-dialog-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="sr-only">Loading…</span>
        </div>
      )}
    </>
  );
}

/** The stream screen behind its guard: shown with a stored access code, or to a signed-in admin; anyone else goes to /access. */
export function GuardedLivestreamPage() {
  return (
    <RequireAccessCode>
      <LivestreamPage />
    </RequireAccessCode>
  );
}
