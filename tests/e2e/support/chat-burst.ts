/**
 * A crowd's burst of chat from real WebSocket clients, in a Bun process of its own (Node 20 has no
 * WebSocket client): `bun chat-burst.ts URL SENDERS LINES_EACH SECONDS`. Each sender is a viewer made
 * through the API (own address; the server trusts 127.0.0.1 as a proxy) and sends its lines spread over
 * SECONDS, under the per-person limit. Prints, as JSON, every line in the order the server broadcast it.
 */
import { readServerFrame } from "../../../src/contracts/chat-batch.ts";
import { createViewers } from "../../../scripts/bench/lib/viewers.ts";

const [url, senders, linesEach, seconds] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const viewers = await createViewers(url, senders, { prefix: "Shade" });
const broadcastOrder: string[] = [];

const sockets = await Promise.all(
  viewers.map(
    (viewer, i) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url.replace(/^http/, "ws") + "/ws", { headers: { cookie: viewer.cookie, origin: url, "x-forwarded-for": viewer.ip } } as unknown as string[]);
        ws.onmessage = (event) => {
          const frame = readServerFrame(JSON.parse(String(event.data)));
          if (frame.type === "chatHistory") resolve(ws);
          // The first socket listens for everyone: its arrival order is the broadcast order.
          if (i !== 0) return;
          if (frame.type === "chat") broadcastOrder.push(frame.message.text);
          if (frame.type === "chat_batch") for (const m of frame.messages) broadcastOrder.push(m.text);
          if (frame.type === "system_message" || frame.type === "error") process.stderr.write(`refused: ${frame.message}\n`);
        };
        ws.onerror = () => reject(new Error(`sender ${i} could not connect`));
      }),
  ),
);

const total = senders * linesEach;
const spacing = (seconds * 1000) / total;
for (let n = 0; n < total; n++) {
  sockets[n % senders]!.send(JSON.stringify({ type: "chat_message", text: `scream ${String(n).padStart(3, "0")}` }));
  await Bun.sleep(spacing);
}
const deadline = Date.now() + 5000;
while (broadcastOrder.length < total && Date.now() < deadline) await Bun.sleep(20);
for (const ws of sockets) ws.close();
process.stdout.write(JSON.stringify(broadcastOrder) + "\n");
