import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { screenshotWidths } from "./support/browser.mjs";
import { useApp } from "./support/e2e.mjs";
import { chatLine, enterStream, routePlayer } from "./support/live.mjs";
import { repoRoot } from "./support/server.mjs";

// The crowd's sockets come from other addresses (X-Forwarded-For from this machine, trusted as a proxy).
const app = useApp({ args: ["--trust-proxy", "127.0.0.1"] });

/** 40 viewers × 5 lines in 2 s: 200 lines, 100 a second, from a separate process of real WebSocket clients. */
async function crowdBurst(url) {
  const { stdout } = await promisify(execFile)(join(repoRoot, "node_modules/.bin/bun"), [join(repoRoot, "tests/e2e/support/chat-burst.ts"), url, "40", "5", "2"], {
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1));
}

app.browserTest("a burst of 200 lines in 2 s arrives in batches and leaves the last 7 lines shown, none dropped or doubled", async ({ page, context, url }) => {
  await routePlayer(context);
  const received = [];
  let batches = 0;
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      const frame = JSON.parse(String(payload));
      if (frame.type === "chat") received.push(frame.message.text);
      if (frame.type === "chat_batch") {
        batches++;
        // On the wire a batch's lines are packed: [id, username, text, at, …].
        for (const line of frame.lines) received.push(line[2]);
      }
    }),
  );
  await enterStream(page, "Watcher");
  const order = await crowdBurst(url);
  assert.equal(order.length, 200, "the server broadcast every line");
  assert.equal(new Set(order).size, 200);

  await chatLine(page, order.at(-1)).waitFor();
  assert.deepEqual(received, order, "the page got every line once, in the broadcast order");
  assert.ok(batches > 0, "a chat this busy is sent in batches");
  const shown = await page.getByRole("log", { name: "Chat messages" }).locator("li .stream-chat-text").allTextContents();
  assert.deepEqual(shown, order.slice(-7));
  await screenshotWidths(page, "livestream-after-burst");
});
