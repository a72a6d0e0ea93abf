/**
 * The server side of RTMP's simple handshake: C0 (version 3) + C1 (1,536 bytes) in, S0 + S1 + S2 out with
 * S2 echoing C1, then C2 (1,536 bytes, not checked: clients fill it differently). OBS's librtmp and FFmpeg
 * both publish over it; an S1 whose second word is zero tells them no digest follows.
 */

import { RtmpProtocolError } from "./chunks.ts";

export const HANDSHAKE_SIZE = 1536;
const RTMP_VERSION = 3;

export type HandshakeStep =
  | { done: false; reply?: Uint8Array }
  /** `rest`: bytes received after C2 (the first chunks), to hand to the chunk reader. */
  | { done: true; reply?: Uint8Array; rest: Uint8Array };

export class ServerHandshake {
  private readonly received = new Uint8Array(1 + HANDSHAKE_SIZE * 2);
  private length = 0;
  private replied = false;

  /** Feeds received bytes. Throws RtmpProtocolError on a version other than 3 (e.g. 6, encrypted RTMPE). */
  push(data: Uint8Array): HandshakeStep {
    const take = Math.min(data.length, this.received.length - this.length);
    this.received.set(data.subarray(0, take), this.length);
    this.length += take;
    if (this.length >= 1 && this.received[0] !== RTMP_VERSION) {
      throw new RtmpProtocolError(`RTMP version ${this.received[0]} is not supported (only 3, unencrypted)`);
    }
    let reply: Uint8Array | undefined;
    if (!this.replied && this.length >= 1 + HANDSHAKE_SIZE) {
      this.replied = true;
      reply = serverReply(this.received.subarray(1, 1 + HANDSHAKE_SIZE));
    }
    if (this.length < this.received.length) return { done: false, reply };
    return { done: true, reply, rest: data.subarray(take) };
  }
}

function serverReply(c1: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + HANDSHAKE_SIZE * 2);
  out[0] = RTMP_VERSION;
  const s1 = out.subarray(1, 1 + HANDSHAKE_SIZE);
  // time (4 bytes, 0 is allowed), zero (4 bytes: no digest), then random bytes
  crypto.getRandomValues(s1.subarray(8));
  out.set(c1, 1 + HANDSHAKE_SIZE);
  return out;
}
