import assert from "node:assert/strict";
import { test } from "node:test";
import { launchBrowser, MOBILE, openPage, screenshot, slug } from "./support/browser.mjs";
import { restartableServer } from "./support/server.mjs";
import { toastWith } from "./support/e2e.mjs";
import { chatLine, connected, enterStream, say } from "./support/live.mjs";
import { screenshotViewportWidths } from "./support/viewer-flows.mjs";

const CONNECTION_ERROR = "Connection error. Please reload the page.";

const NAME = "the chat reconnects after a server restart, keeps its history, and says so when it cannot";

test(NAME, async () => {
  const server = await restartableServer();
  const browser = await launchBrowser();
  const { page, context, pageErrors } = await openPage(browser, server.url, MOBILE);
  // The chat's sockets as the browser saw them, printed if the test fails: when each opened and closed.
  const started = Date.now();
  const sockets = [];
  page.on("websocket", (socket) => {
    sockets.push(`${Date.now() - started} ms: opened`);
    socket.on("close", () => sockets.push(`${Date.now() - started} ms: closed`));
  });
  try {
    await enterStream(page, "Survivor");
    await say(page, "before the restart");
    await chatLine(page, "before the restart").waitFor();

    // The server goes away: the chat offers RECONNECT, then comes back by itself once the server is up again.
    await server.stop();
    await page.getByRole("button", { name: "RECONNECT" }).waitFor();
    assert.equal(await page.getByRole("textbox", { name: "Chat message" }).getAttribute("placeholder"), "Connecting...");
    assert.equal(await page.getByRole("button", { name: "Send message" }).isDisabled(), true);
    await server.start();
    await connected(page, 20_000);
    await chatLine(page, "before the restart").waitFor();
    await say(page, "after the restart");
    await chatLine(page, "after the restart").waitFor();

    // Down for longer: after repeated failures the chat says it cannot connect; RECONNECT tries again at once.
    // The notice in the chat panel, and once for the whole streak, the toast. Five attempts take about 9 s
    // of backoff; the wait allows for a machine that is busy with other tests.
    await server.stop();
    sockets.push(`${Date.now() - started} ms: the server stopped again`);
    await page.locator(".stream-chat-connection-error").getByText(CONNECTION_ERROR).waitFor({ timeout: 60_000 });
    const errorToast = toastWith(page, CONNECTION_ERROR);
    await errorToast.waitFor();
    assert.equal(await errorToast.getAttribute("data-variant"), "destructive");
    await screenshot(page, "chat-connection-error-390");
    await screenshotViewportWidths(page, "toast-connection-error");
    await server.start();
    const clicked = Date.now();
    await page.getByRole("button", { name: "RECONNECT" }).click();
    await connected(page, 5_000);
    assert.ok(Date.now() - clicked < 3_000, "the manual reconnect does not wait for the backoff");
    await errorToast.waitFor({ state: "detached" });
    assert.equal(await page.getByText(CONNECTION_ERROR).count(), 0, "the notice and the toast are gone once connected");
    assert.deepEqual(pageErrors.map(String), []);
  } catch (error) {
    console.log(`the chat's sockets:\n${sockets.join("\n")}`);
    await screenshot(page, `failure-${slug(NAME)}`).catch(() => {});
    throw error;
  } finally {
    await context.close();
    await browser.close();
    await server.close();
  }
});
