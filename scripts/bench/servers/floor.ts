/**
 * The floor: the least a Bun WebSocket chat can do. Every frame received is published as it is to one
 * topic that every socket joined: no auth, no validation, no storage. Same server settings as dreadcast's
 * /ws (no compression). Prints `floor listening on <url>`.
 *
 * `--batch-ms N`: the floor of a batching server — frames received within N ms of the first one go out
 * together as one frame (a JSON array of them), the least a server that batches can do.
 */
const at = process.argv.indexOf("--batch-ms");
const batchMs = at === -1 ? 0 : Number(process.argv[at + 1]);
let held: string[] = [];

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
      if (batchMs === 0) {
        server.publish("live", message);
        return;
      }
      if (held.length === 0) {
        setTimeout(() => {
          server.publish("live", `[${held.join(",")}]`);
          held = [];
        }, batchMs);
      }
      held.push(String(message));
    },
  },
});
console.log(`floor listening on http://127.0.0.1:${server.port}`);

export {};
