/**
 * The client's address: the socket peer, or — only when the peer is a trusted proxy — the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null, trustProxy: string[]): string {
  const direct = normalise(peer ?? "unknown");
  if (!forwardedFor || !trustProxy.includes(direct)) return direct;
  const hops = forwardedFor
    .split(",")
    .map((h) => normalise(h.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustProxy.includes(hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? direct;
}

function normalise(address: string): string {
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}
