/** The 'Loading Stream' card: before there is a stream to play, or over the video while it (re)loads. */
export function StreamLoading({ overlay = false }: { overlay?: boolean }) {
  return (
    <div className={overlay ? "stream-player-loading stream-player-loading-overlay" : "stream-player-loading"} role="status">
      <div className="spinner" aria-hidden="true" />
      <p className="stream-player-title">Loading Stream</p>
      <p className="stream-player-text">Please wait...</p>
    </div>
  );
}

/** The stream is switched off by the admin: not live (yet), nothing to play. */
export function StreamOffline() {
  return (
    <div className="stream-player-loading stream-player-offline" role="status">
      <p className="stream-player-title">Stream Offline</p>
      <p className="stream-player-text">The event will begin soon...</p>
    </div>
  );
}
