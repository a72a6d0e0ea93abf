/** The viewer's name and the end of their code, faint and drifting over the player, so a recording names its source. */
export function Watermark({ text }: { text: string }) {
  return (
    <div className="stream-watermark" aria-hidden="true" data-testid="stream-watermark">
      <span className="stream-watermark-text">{text}</span>
    </div>
  );
}
