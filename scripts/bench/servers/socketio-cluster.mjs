/**
 * The common way to spread a Socket.IO chat over several processes: the same server as socketio.mjs with
 * `@socket.io/redis-adapter` on the Redis named by REDIS_URL (node-redis clients, one to publish and one
 * to subscribe), so `io.emit` reaches the sockets of every process. Prints `socketio listening on <url>`.
 *
 * MESSAGE=full: each chat message goes out as a chat app's message — what dreadcast sends for a line (an
 * id, the sender's name, the text, a timestamp, the type and the pinned flag) — rather than the sender's
 * `{ text }` echoed, so that both servers deliver the same bytes of information.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import { Server } from "socket.io";

const pubClient = createClient({ url: process.env.REDIS_URL });
const subClient = pubClient.duplicate();
await Promise.all([pubClient.connect(), subClient.connect()]);

const http = createServer({ noDelay: true });
const io = new Server(http, { transports: ["websocket"], perMessageDeflate: false, serveClient: false, adapter: createAdapter(pubClient, subClient) });
const full = process.env.MESSAGE === "full";
let connections = 0;
io.on("connection", (socket) => {
  const username = `viewer${connections++}`;
  socket.on("chat", (message) => {
    if (!full) return io.emit("chat", message);
    io.emit("chat", { id: randomBytes(8).toString("base64url"), username, text: String(message?.text ?? ""), timestamp: new Date().toISOString(), type: "user", isPinned: false });
  });
});
http.listen(0, "127.0.0.1", () => {
  console.log(`socketio listening on http://127.0.0.1:${http.address().port}`);
});
