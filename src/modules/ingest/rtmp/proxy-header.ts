/**
 * The PROXY protocol header (HAProxy's, versions 1 and 2) that a TCP proxy in front of the RTMP port
 * (nginx's `proxy_protocol on;` in a stream block, caddy-l4's `proxy_protocol`) sends before the client's
 * own bytes, naming the client's address. Without it every publisher would seem to come from the proxy,
 * and the door's per-address limits would hold all of them as one. Read only from peers the operator
 * trusts (`--trust-proxy`); from anyone else "PROXY" is just a bad RTMP handshake. Sans-IO: fed bytes
 * until it has the header, or knows there is none.
 */

const V2_SIGNATURE = Uint8Array.of(0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a);
const V1_PREFIX = new TextEncoder().encode("PROXY ");
/** A v1 line is at most 107 bytes with its CRLF. */
const V1_MAX = 107;

export class ProxyHeaderError extends Error {
  override name = "ProxyHeaderError";
}

export type ProxyHeaderStep =
  | { done: false }
  /** `address`: the client's, or null when the header names none (LOCAL, UNKNOWN: the proxy's own check). `rest`: the client's bytes after it. */
  | { done: true; address: string | null; rest: Uint8Array };

export class ProxyHeaderReader {
  private buffered = new Uint8Array(0);

  /** Feeds bytes; throws ProxyHeaderError on a header that is malformed. A stream that starts otherwise has no header: address null, all of it the rest. */
  push(data: Uint8Array): ProxyHeaderStep {
    const bytes = new Uint8Array(this.buffered.length + data.length);
    bytes.set(this.buffered);
    bytes.set(data, this.buffered.length);
    this.buffered = bytes;
    if (startsWith(bytes, V1_PREFIX)) return this.v1(bytes);
    if (startsWith(bytes, V2_SIGNATURE)) return this.v2(bytes);
    // Could it still become one? Then wait for more; otherwise the client's bytes start here.
    if (isPrefixOf(bytes, V1_PREFIX) || isPrefixOf(bytes, V2_SIGNATURE)) return { done: false };
    return { done: true, address: null, rest: bytes };
  }

  private v1(bytes: Uint8Array): ProxyHeaderStep {
    let end = -1;
    for (let i = 0; i + 1 < Math.min(bytes.length, V1_MAX); i++) {
      if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      if (bytes.length >= V1_MAX) throw new ProxyHeaderError("PROXY v1 line without its end");
      return { done: false };
    }
    const line = new TextDecoder().decode(bytes.subarray(0, end));
    const rest = bytes.subarray(end + 2);
    const fields = line.split(" ");
    if (fields[1] === "UNKNOWN") return { done: true, address: null, rest };
    const [, family, source, , sourcePort, targetPort] = fields;
    const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
    const valid =
      fields.length === 6 &&
      ((family === "TCP4" && ipv4.test(source ?? "") && source!.split(".").every((n) => Number(n) <= 255)) ||
        (family === "TCP6" && /^[0-9a-fA-F:.]{2,45}$/.test(source ?? "") && source!.includes(":"))) &&
      [sourcePort, targetPort].every((port) => /^\d{1,5}$/.test(port ?? "") && Number(port) <= 65535);
    if (!valid) throw new ProxyHeaderError("malformed PROXY v1 line");
    return { done: true, address: source!, rest };
  }

  private v2(bytes: Uint8Array): ProxyHeaderStep {
    if (bytes.length < 16) return { done: false };
    const versionCommand = bytes[12]!;
    const family = bytes[13]!;
    const length = (bytes[14]! << 8) | bytes[15]!;
    if (versionCommand >> 4 !== 2) throw new ProxyHeaderError(`PROXY v2 header of version ${versionCommand >> 4}`);
    if (bytes.length < 16 + length) return { done: false };
    const rest = bytes.subarray(16 + length);
    const body = bytes.subarray(16, 16 + length);
    const command = versionCommand & 0x0f;
    if (command === 0) return { done: true, address: null, rest }; // LOCAL: the proxy's own health check
    if (command !== 1) throw new ProxyHeaderError(`PROXY v2 command ${command}`);
    if (family === 0x11 && length >= 12) return { done: true, address: [...body.subarray(0, 4)].join("."), rest };
    if (family === 0x21 && length >= 36) {
      const groups: string[] = [];
      for (let i = 0; i < 16; i += 2) groups.push(((body[i]! << 8) | body[i + 1]!).toString(16));
      return { done: true, address: groups.join(":"), rest };
    }
    return { done: true, address: null, rest }; // UNSPEC or a Unix socket: no address to name
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** `bytes` is shorter than `prefix` and agrees with it so far. */
function isPrefixOf(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length < prefix.length && bytes.every((b, i) => prefix[i] === b);
}
