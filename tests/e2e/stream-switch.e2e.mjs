/**
 * The admin moves the stream to another player during the event: pages already open were loaded with a
 * Content-Security-Policy that allows only the old player, so they must pick up the new one by themselves.
 */
import assert from "node:assert/strict";
import { startHlsOrigin } from "../support/hls-origin.mjs";
import { MOBILE } from "./support/browser.mjs";
import { until, useApp } from "./support/e2e.mjs";
import { adminApi, chatLine, connected, enterStream, PLAYER_ORIGIN, PLAYER_URL, routePlayer, say } from "./support/live.mjs";
import { screenshotViewportWidths } from "./support/viewer-flows.mjs";

const OTHER_ORIGIN = "https://backup-player.dreadcast.test";
const OTHER_URL = `${OTHER_ORIGIN}/embed/night-one-backup`;

// The HLS origin runs on this machine, beside the server.
const app = useApp({ args: ["--allow-private-origins"] });

/** Resolves once the player frame has loaded the stand-in player at this address (not a blocked frame). */
async function playerShows(page, url, timeout = 15_000) {
  await until(
    `the player at ${url} to load`,
    async () => {
      const frame = page.frames().find((f) => f.url() === url);
      return (
        frame &&
        (await frame
          .locator(".rec")
          .count()
          .catch(() => 0)) > 0
      );
    },
    timeout,
    100,
  );
}

app.browserTest(
  "an open page follows the stream to a player its first policy did not allow: another origin, then the relay",
  async ({ page, context }) => {
    await routePlayer(context, [PLAYER_ORIGIN, OTHER_ORIGIN]);
    const api = await adminApi(app.url);
    await api.updateSettings({ embedUrl: PLAYER_URL, isActive: true });
    await enterStream(page, "Watcher");
    await playerShows(page, PLAYER_URL);
    await say(page, "the cellar first");
    await chatLine(page, "the cellar first").waitFor();
    let loads = 0;
    page.on("load", () => loads++);

    // Another embed origin: the page's policy blocks it, so the page loads again once, with a policy that allows it.
    await api.updateSettings({ embedUrl: OTHER_URL });
    await playerShows(page, OTHER_URL);
    assert.equal(loads, 1, "one reload");
    await connected(page);
    await chatLine(page, "the cellar first").waitFor();
    await screenshotViewportWidths(page, "stream-switched-origin");

    // The relay: the video and hls.js's worker need what the embed's policy did not allow.
    const origin = await startHlsOrigin();
    try {
      await api.setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
      await page.waitForFunction(
        () => {
          const video = /** @type {HTMLVideoElement | null} */ (document.querySelector("video.stream-video"));
          return (video?.currentTime ?? 0) > 0.5;
        },
        null,
        { timeout: 30_000 },
      );
      assert.equal(loads, 2, "one more reload");
    } finally {
      await origin.stop();
    }

    // Back to the first player: allowed again after one more reload, never a loop.
    await api.setStreamSource({ kind: "embed", embedUrl: PLAYER_URL });
    await playerShows(page, PLAYER_URL);
    await page.waitForTimeout(1000);
    assert.equal(loads, 3);
  },
  { viewport: MOBILE },
);
