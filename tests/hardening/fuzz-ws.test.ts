import { afterAll, beforeAll, expect, test } from "bun:test";
import { WS_MAX_FRAME_BYTES } from "../../src/contracts/chat.ts";
import { hostileString, hostileValue, mutateBody } from "./fuzz-values.ts";
import { adminSession, STAND_IN_PAGE, startTestApp, type TestApp } from "../support/app.ts";
import { WsClient } from "../support/ws.ts";
import { viewerSession } from "../support/viewer.ts";
import { prng, runSeed, type Rng } from "../support/hardening.ts";

/**
 * A generated fuzz of every WebSocket message type, sent by viewers, test-code viewers, moderators and an
 * admin at once: wrong types, missing and extra fields, huge strings, deep JSON, unicode, HTML and SQL,
 * binary and non-JSON frames, frames over the size limit. Nothing may fail inside the server (no
 * "Something went wrong", nothing logged), sockets close only for the documented reasons, and the
 * server and database stay sound.
 */

const SEED = runSeed(20261122) + 7;
const FRAMES = Number(process.env.HARDENING_WS_FRAMES ?? 3000);
/** Closes the server may make: oversize frame, kicked, banned. */
const EXPECTED_CLOSES = new Set([1009, 4001, 4003]);

type Role = "viewer" | "tester" | "moderator" | "admin";

interface Peer {
  role: Role;
  name: string;
  socket: WsClient;
}

let app: TestApp;
let serial = 0;

beforeAll(async () => {
  app = await startTestApp({ trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
});

afterAll(async () => {
  await app?.close();
});

async function connect(role: Role): Promise<Peer> {
  const name = `${role}${++serial}`;
  const cookie = role === "admin" ? await adminSession(app.ctx) : (await viewerSession(app.ctx, name, role === "viewer" ? "SKP" : role === "tester" ? "SCP" : "MOD")).cookie;
  const socket = await WsClient.open(app, { cookie, "x-forwarded-for": `10.9.${serial >> 8}.${serial & 255}` });
  return { role, name: role === "admin" ? "warden" : name, socket };
}

function frameFor(rng: Rng, names: string[], messageIds: string[]): string | Uint8Array {
  const target = () => (rng.chance(0.6) && names.length ? rng.pick(names) : hostileString(rng).slice(0, 120));
  const messageId = () => (rng.chance(0.6) && messageIds.length ? rng.pick(messageIds) : hostileString(rng).slice(0, 80));
  const text = () => (rng.chance(0.5) ? `hello ${rng.int(0, 1e6)}` : hostileString(rng).slice(0, rng.pick([50, 200, 201, 1000, 3000])));
  const baselines: Record<string, () => Record<string, unknown>> = {
    authenticate: () => ({ type: "authenticate", username: target(), accessCode: "SKP-X", isTestCode: false }),
    chat_message: () => ({ type: "chat_message", text: text() }),
    chat: () => ({ type: "chat", message: { text: text() }, username: target() }),
    send_heart: () => ({ type: "send_heart" }),
    heart: () => ({ type: "heart", username: target() }),
    donation: () => ({ type: "donation", paymentIntentId: rng.pick(["pi_123", "pi_" + "9".repeat(30), hostileString(rng).slice(0, 300)]), amount: 5 }),
    delete_message: () => ({ type: "delete_message", messageId: messageId() }),
    delete: () => ({ type: "delete", messageId: messageId() }),
    pin: () => ({ type: "pin", messageId: messageId() }),
    kick_user: () => ({ type: "kick_user", username: target() }),
    kick: () => ({ type: "kick", targetUsername: target(), messageId: rng.chance(0.3) ? messageId() : undefined }),
    ban_user: () => ({ type: "ban_user", username: target() }),
    ban: () => ({ type: "ban", targetUsername: target(), reason: rng.chance(0.5) ? text() : undefined }),
    timeout_user: () => ({ type: "timeout_user", username: target(), seconds: rng.pick([60, 300, 600, 3600, 86_400, 59, 86_401, 0, -1, 1.5]) }),
    lift_timeout: () => ({ type: "lift_timeout", username: target() }),
    slow_mode: () => ({ type: "slow_mode", seconds: rng.pick([0, 5, 10, 30, 60, 120, 7, -5, 1e9]) }),
  };
  const roll = rng.int(0, 99);
  if (roll < 3) return new Uint8Array(Array.from({ length: rng.int(0, 300) }, () => rng.int(0, 255)));
  if (roll < 6) return rng.pick(["", "{", "null", "[]", "42", '"type"', '{"type":', "\u0000", "{}"]);
  if (roll < 8) return JSON.stringify({ type: "chat_message", text: "x".repeat(WS_MAX_FRAME_BYTES + rng.int(1, 1000)) });
  if (roll < 11) return JSON.stringify(hostileValue(rng)).slice(0, WS_MAX_FRAME_BYTES - 10);
  if (roll < 14) return JSON.stringify({ type: hostileString(rng).slice(0, 100), text: "x" });
  const type = rng.pick(Object.keys(baselines));
  const mutated = mutateBody(rng, baselines[type]!());
  // Keep the type most of the time, so each handler sees its own malformed frames.
  if (mutated && typeof mutated === "object" && !Array.isArray(mutated) && rng.chance(0.85)) (mutated as Record<string, unknown>).type = type;
  const json = JSON.stringify(mutated) ?? "null";
  return json.length > WS_MAX_FRAME_BYTES && rng.chance(0.8) ? json.slice(0, WS_MAX_FRAME_BYTES - 1) : json;
}

test(`${FRAMES} generated frames of every message type from every kind of user: nothing breaks`, async () => {
  const roles: Role[] = ["viewer", "viewer", "viewer", "viewer", "tester", "tester", "moderator", "moderator", "moderator", "admin"];
  const peers: Peer[] = [];
  for (const role of roles) peers.push(await connect(role));
  const rng = prng(SEED);
  const unexpectedCloses: string[] = [];
  const internalErrors: string[] = [];
  let sent = 0;
  let oversize = 0;
  let reconnects = 0;

  while (sent < FRAMES) {
    // One round: every peer sends a few frames (under the 40 frames/s budget per socket).
    const names = peers.map((p) => p.name);
    const messageIds = app.ctx.chat.messages.history(20).map((m) => m.id);
    for (const peer of peers) {
      for (let k = 0; k < 3 && sent < FRAMES; k++) {
        const frame = frameFor(rng, names, messageIds);
        const size = typeof frame === "string" ? new TextEncoder().encode(frame).length : frame.length;
        if (size > WS_MAX_FRAME_BYTES) oversize++;
        if (peer.socket.open) peer.socket.socket.send(frame);
        sent++;
      }
    }
    await Bun.sleep(80);
    for (let i = 0; i < peers.length; i++) {
      const peer = peers[i]!;
      for (const e of peer.socket.events) if (e.type === "error" && /went wrong/i.test(e.message)) internalErrors.push(`${peer.role}: ${e.message}`);
      if (!peer.socket.open) {
        const { code } = await peer.socket.closed;
        if (!EXPECTED_CLOSES.has(code)) unexpectedCloses.push(`${peer.role} ${peer.name} closed ${code}`);
        peers[i] = await connect(peer.role);
        reconnects++;
      }
    }
  }

  // Every socket still open answers; the server is up and its data sound.
  for (const peer of peers) {
    if (!peer.socket.open) continue;
    const before = peer.socket.events.length;
    peer.socket.send({ type: "authenticate" });
    expect(await peer.socket.waitFor((e) => e.type === "auth_ok" && peer.socket.events.indexOf(e) >= before, 5000)).not.toBeNull();
  }
  for (const peer of peers) peer.socket.close();
  console.log(`ws fuzz: ${sent} frames (${oversize} over the size limit), ${reconnects} reconnects after kicks, bans and oversize closes`);
  expect(internalErrors).toEqual([]);
  expect(unexpectedCloses).toEqual([]);
  expect(app.loggedErrors.slice(0, 5)).toEqual([]);
  expect((await fetch(app.url + "/healthz")).status).toBe(200);
  if (app.ctx.store.engine === "sqlite") expect((await app.ctx.store.get<{ integrity_check: string }>("PRAGMA integrity_check"))?.integrity_check).toBe("ok");
}, 180_000);
