import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** The flag that lets the relay fetch from this server or its own network. */
export const ALLOW_PRIVATE_FLAG = "--allow-private-origins";

/** Addresses inside the host or its network, by what they are; checked in this order (::/96 holds :: and ::1). */
const RANGES: [kind: string, network: string, prefix: number][] = [
  ["unspecified", "0.0.0.0", 8],
  ["unspecified", "::", 128],
  ["loopback", "127.0.0.0", 8],
  ["loopback", "::1", 128],
  ["link-local", "169.254.0.0", 16],
  ["link-local", "fe80::", 10],
  ["private", "10.0.0.0", 8],
  ["private", "172.16.0.0", 12],
  ["private", "192.168.0.0", 16],
  // Carrier-grade NAT and VPN meshes (Tailscale), and some clouds' metadata services (100.100.100.200).
  ["private", "100.64.0.0", 10],
  ["private", "198.18.0.0", 15],
  ["private", "fc00::", 7],
  ["private", "fec0::", 10],
  // Protocol assignments, multicast, the reserved block and broadcast, and IPv4-compatible IPv6.
  ["reserved", "192.0.0.0", 24],
  ["reserved", "224.0.0.0", 3],
  ["reserved", "ff00::", 8],
  ["reserved", "::", 96],
];

const BLOCKS = RANGES.map(([kind, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, isIP(network) === 4 ? "ipv4" : "ipv6");
  return { kind, list };
});

/** NAT64's well-known prefix: the IPv4 address in its last 32 bits is where the packets go. */
const NAT64 = new BlockList();
NAT64.addSubnet("64:ff9b::", 96, "ipv6");

/** What an IP address is when it is inside the host or its network ("loopback", "private", …), or null for a public one. */
export function addressKind(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return "unknown";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (type === "ipv6" && NAT64.check(address, "ipv6")) {
    const groups = new URL(`http://[${address}]`).hostname.slice(1, -1).split(":");
    const low = groups.slice(-2).map((group) => Number.parseInt(group || "0", 16));
    return addressKind([low[0]! >> 8, low[0]! & 255, low[1]! >> 8, low[1]! & 255].join("."));
  }
  return BLOCKS.find((block) => block.list.check(address, type))?.kind ?? null;
}

/** Why the relay may not fetch from an origin; the message says what the address is. */
export class OriginRefused extends Error {}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "");

/**
 * The address to connect to for a URL's host: the host itself when it is an IP address, else what its name
 * resolves to. Throws OriginRefused when any address is inside the host or its network, or none is found.
 */
export async function checkedAddress(url: URL, signal?: AbortSignal): Promise<{ address: string; family: number }> {
  const host = bare(url.hostname);
  let found: { address: string; family: number }[];
  if (isIP(host)) found = [{ address: host, family: isIP(host) }];
  else {
    try {
      found = await abortable(lookup(host, { all: true }), signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new OriginRefused(`its host name ${host} does not resolve to an address`);
    }
    if (!found.length) throw new OriginRefused(`its host name ${host} does not resolve to an address`);
  }
  for (const { address } of found) {
    const kind = addressKind(address);
    if (kind) throw new OriginRefused(`it points to ${address}, ${kind === "unknown" ? "an address the relay cannot check" : `a ${kind} address`}`);
  }
  return found[0]!;
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * GET an origin's URL, following no redirects. Unless private origins are allowed, the host's addresses are
 * checked on every call and the request connects to the address checked (the name still sent as Host and
 * as the TLS server name), so a name that resolves elsewhere by the time of the request cannot slip past.
 */
export async function fetchFromOrigin(url: URL, allowPrivate: boolean, signal: AbortSignal): Promise<Response> {
  const init: RequestInit = { redirect: "manual", signal };
  if (allowPrivate) return fetch(url, init);
  const { address, family } = await checkedAddress(url, signal);
  if (isIP(bare(url.hostname))) return fetch(url, init);
  const direct = new URL(url);
  direct.hostname = family === 6 ? `[${address}]` : address;
  return fetch(direct, { ...init, headers: { host: url.host }, ...(url.protocol === "https:" ? { tls: { serverName: url.hostname } } : {}) });
}

/** An origin's body past the size the relay keeps of one file. */
export class BodyTooLarge extends Error {}
/** A body that does not fit in what the relay may hold in memory at this moment. */
export class NoRoom extends Error {}

/**
 * A response's body, read only while it stays within `limit` bytes (decompressed) and `take` grants room
 * for each part of it; the connection is dropped as soon as either says no.
 */
export async function readBounded(response: Response, limit: number, take: (bytes: number) => boolean): Promise<Blob> {
  const declared = response.headers.get("content-length");
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  if (declared !== null && !encoded && /^\d+$/.test(declared)) {
    const size = Number(declared);
    if (size > limit || !take(size)) {
      await response.body?.cancel();
      throw size > limit ? new BodyTooLarge() : new NoRoom();
    }
    // The length is known and granted: Bun reads it into one buffer.
    return response.blob();
  }
  if (!response.body) return new Blob([]);
  const reader = (response.body as ReadableStream<Uint8Array<ArrayBuffer>>).getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit || !take(value.byteLength)) {
      await reader.cancel();
      throw size > limit ? new BodyTooLarge() : new NoRoom();
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  return new Blob(chunks);
}
