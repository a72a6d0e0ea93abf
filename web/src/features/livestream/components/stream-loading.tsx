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
