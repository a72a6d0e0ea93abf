/**
 * The longest each text field of the admin panel may be: the server's schemas refuse more, saying the
 * limit, and each field carries it as its `maxlength`, so neither can say one thing and do another.
 */
export const TEXT_LIMITS = {
  eventTitle: 200,
  organizerName: 200,
  /** Web addresses: the embed URL, the thumbnail path, the legal and social links, an HLS origin. */
  address: 2000,
  email: 254,
  /** A stream provider's ids (a Mux signing key id, a Cloudflare customer code, a Bunny library id…). */
  streamId: 128,
  /** A stream provider's private key or token secret, pasted as a PEM or a JWK. */
  streamSecret: 20_000,
  recordingTitle: 200,
  reason: 200,
  /** The owner's words to the buyers when the event is cancelled. */
  cancelNote: 500,
  adminUsername: 50,
  password: 200,
  passkeyName: 60,
} as const;

/** The message of a field longer than its limit: "Event title must be 200 characters or less". */
export function tooLong(label: string, max: number): string {
  return `${label} must be ${max.toLocaleString("en-GB")} characters or less`;
}
