/**
 * The common alternative: a Socket.IO 4 server on Node that broadcasts each chat message to everyone
 * (`io.emit`), WebSocket transport only, no compression. Prints `socketio listening on <url>`.
 */
import { createServer } from "node:http";
import { Server } from "socket.io";

const http = createServer({ noDelay: true });
const io = new Server(http, { transports: ["websocket"], perMessageDeflate: false, serveClient: false });
io.on("connection", (socket) => {
  socket.on("chat", (message) => io.emit("chat", message));
});
http.listen(0, "127.0.0.1", () => {
  console.log(`socketio listening on http://127.0.0.1:${http.address().port}`);
});
