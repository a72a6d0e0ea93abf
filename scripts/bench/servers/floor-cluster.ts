/**
 * The floor of a cluster member: the least any chat server spread over several processes through Redis can
 * do without holding messages back. Each frame received becomes a chat app's whole message, as
 * socketio-cluster.mjs makes it with MESSAGE=full (an id, the sender's name, the text, a timestamp, the type
 * and the pinned flag: the bytes dreadcast sends for a line), published to the local topic every socket
 * joined (no auth, validation or storage) and once to a Redis channel; each message another process
 * published there goes to the local topic. Bun's own Redis client, one connection to publish and one to
 * subscribe, as a dreadcast instance has. Same server settings as dreadcast's /ws.
 * Prints `floor-cluster listening on <url>`; REDIS_URL names the Redis.
 */
import { RedisClient } from "bun";
import { randomBytes } from "node:crypto";

const url = process.env.REDIS_URL;
if (!url) throw new Error("REDIS_URL is required");
const CHANNEL = "floor";
/** Frames on the channel start with the publishing process's tag, so that none is sent twice here. */
const tag = `${process.pid}\n`;
const publisher = new RedisClient(url);
const subscriber = new RedisClient(url);
await Promise.all([publisher.connect(), subscriber.connect()]);

let connections = 0;

const server = Bun.serve<{ username: string }>({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request, server) {
    if (server.upgrade(request, { data: { username: `viewer${connections++}` } })) return undefined;
    return new Response("upgrade to a WebSocket", { status: 426 });
  },
  websocket: {
    perMessageDeflate: false,
    idleTimeout: 60,
    open(ws) {
      ws.subscribe("live");
    },
    message(ws, message) {
      let text: string;
      try {
        text = String((JSON.parse(String(message)) as { text?: unknown }).text ?? "");
      } catch {
        return;
      }
      const frame = JSON.stringify({
        type: "chat",
        message: { id: randomBytes(8).toString("base64url"), username: ws.data.username, text, timestamp: new Date().toISOString(), type: "user", isPinned: false },
      });
      server.publish("live", frame);
      void publisher.publish(CHANNEL, tag + frame);
    },
  },
});
await subscriber.subscribe(CHANNEL, (payload: string) => {
  if (!payload.startsWith(tag)) server.publish("live", payload.slice(payload.indexOf("\n") + 1));
});
console.log(`floor-cluster listening on http://127.0.0.1:${server.port}`);
