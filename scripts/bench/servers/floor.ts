/**
 * The floor: the least a Bun WebSocket chat can do. Every frame received is published as it is to one
 * topic that every socket joined: no auth, no validation, no storage. Same server settings as dreadcast's
 * /ws (no compression). Prints `floor listening on <url>`.
 */
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request, server) {
    if (server.upgrade(request)) return undefined;
    return new Response("upgrade to a WebSocket", { status: 426 });
  },
  websocket: {
    perMessageDeflate: false,
    idleTimeout: 60,
    open(ws) {
      ws.subscribe("live");
    },
    message(_ws, message) {
      server.publish("live", message);
    },
  },
});
console.log(`floor listening on http://127.0.0.1:${server.port}`);

export {};
