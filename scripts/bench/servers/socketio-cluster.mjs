/**
 * The common way to spread a Socket.IO chat over several processes: the same server as socketio.mjs with
 * `@socket.io/redis-adapter` on the Redis named by REDIS_URL (node-redis clients, one to publish and one
 * to subscribe), so `io.emit` reaches the sockets of every process. Prints `socketio listening on <url>`.
 */
import { createServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import { Server } from "socket.io";

const pubClient = createClient({ url: process.env.REDIS_URL });
const subClient = pubClient.duplicate();
await Promise.all([pubClient.connect(), subClient.connect()]);

const http = createServer({ noDelay: true });
const io = new Server(http, { transports: ["websocket"], perMessageDeflate: false, serveClient: false, adapter: createAdapter(pubClient, subClient) });
io.on("connection", (socket) => {
  socket.on("chat", (message) => io.emit("chat", message));
});
http.listen(0, "127.0.0.1", () => {
  console.log(`socketio listening on http://127.0.0.1:${http.address().port}`);
});
