/**
 * A page left open while the server is upgraded: the new build no longer has the old one's split-off
 * files, so the page must reload rather than break, and the live page offers to.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { launchBrowser, MOBILE, openPage, screenshot, slug } from "./support/browser.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { chatLine, connected, enterStream, say } from "./support/live.mjs";
import { settled } from "./support/page-weight.mjs";
import { restartableServer } from "./support/server.mjs";
import { openBuyDialog, screenshotViewportWidths } from "./support/viewer-flows.mjs";

const NEXT_BUILD = "0123456789ab";
const BUILD_META = /(<meta name="dreadcast-build" content=")([^"]+)(")/;

/** The build the page in the tab was loaded from. */
const pageBuild = (page) => page.evaluate(() => document.querySelector('meta[name="dreadcast-build"]')?.getAttribute("content") ?? null);

/**
 * From `upgrade()` on, the browser sees the server of the next build: every page it serves names that
 * build, and the files of the build the open page came from are gone (404, as the server answers for a
 * file it does not have). A page loaded after that is a page of the next build, whose files load.
 */
async function upgradableServer(context, baseUrl) {
  const state = { upgraded: false, reloaded: false, missing: [] };
  await context.route(`${baseUrl}/**`, async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    if (!state.upgraded) return route.continue();
    if (request.resourceType() === "document") state.reloaded = true;
    if (path.startsWith("/assets/") && !state.reloaded) {
      state.missing.push(path);
      return route.fulfill({ status: 404, contentType: "text/plain; charset=utf-8", body: "Not Found" });
    }
    // Pages (a navigation, or the page asking for index.html) name the next build; the API is untouched.
    const isPage = request.resourceType() === "document" || (path === "/" && request.resourceType() === "fetch");
    if (!isPage) return route.continue();
    const response = await route.fetch();
    return route.fulfill({ response, body: (await response.text()).replace(BUILD_META, `$1${NEXT_BUILD}$3`) });
  });
  return {
    state,
    upgrade() {
      state.upgraded = true;
    },
  };
}

const app = useApp();

app.browserTest(
  "a page open across an upgrade reloads instead of breaking when it needs a file the new build no longer has",
  async ({ page, context, url }) => {
    const served = await (await fetch(url)).text();
    assert.match(BUILD_META.exec(served)?.[2] ?? "", /^[0-9a-f]{12}$/, "index.html names its build");
    assert.equal((await (await fetch(`${url}/readyz`)).json()).build, BUILD_META.exec(served)[2], "/readyz names the same build");
    const server = await upgradableServer(context, url);
    await page.goto("/");
    const before = await pageBuild(page);
    assert.equal(before, BUILD_META.exec(served)[2]);
    // The page has fetched what it fetches once idle (the query cache, the toasts): the tap is what meets the
    // upgrade, not an idle fetch that would reload the page under the finger first.
    await settled(page);

    server.upgrade();
    await page.getByRole("button", { name: /BUY NOW/ }).click();
    // The payment dialog's file is gone: the page reloads as the new build and says why.
    const updated = toastWith(page, "DREADCAST was updated");
    await updated.waitFor();
    assert.ok(
      server.state.missing.some((path) => /payment-dialog/.test(path)),
      `asked for ${server.state.missing}`,
    );
    assert.equal(await pageBuild(page), NEXT_BUILD);
    assert.match(await updated.textContent(), /The page was reloaded to bring it up to date\. Please try again\./);
    await screenshotViewportWidths(page, "update-reloaded-toast");

    // Trying again works, and a page that is up to date shows no update bar.
    await openBuyDialog(page);
    assert.equal(await page.locator(".update-bar").count(), 0);
  },
  { viewport: MOBILE },
);

app.browserTest("a part of the page that cannot be loaded shows a way back instead of a blank screen", async ({ page, context }) => {
  // The same build on both sides: no update explains it, so the page says so and offers to try again.
  await context.route("**/assets/access-page-*.js", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "Not Found" }));
  await page.goto("/access");
  const card = page.getByRole("alert").filter({ hasText: "Something went wrong" });
  await card.waitFor();
  assert.match(await card.textContent(), /This page could not be loaded\. Check your connection, then try again\./);
  await screenshotViewportWidths(page, "page-load-failed");

  await context.unroute("**/assets/access-page-*.js");
  await page.getByRole("button", { name: "Try again" }).click();
  await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  assert.equal(await page.getByText("Something went wrong").count(), 0);
});

const LIVE = "the live page offers to reload when the chat reconnects to an upgraded server, and not before";

test(LIVE, async () => {
  const server = await restartableServer();
  const browser = await launchBrowser();
  const { page, context, pageErrors } = await openPage(browser, server.url, MOBILE);
  try {
    const upgradable = await upgradableServer(context, server.url);
    await enterStream(page, "Nightwatch");
    await say(page, "before the upgrade");
    await chatLine(page, "before the upgrade").waitFor();

    // A restart of the same build: the chat comes back and nothing is offered.
    await server.stop();
    await page.getByRole("button", { name: "RECONNECT" }).waitFor();
    await server.start();
    await connected(page, 20_000);
    await page.waitForTimeout(1000);
    assert.equal(await page.locator(".update-bar").count(), 0, "no update bar after a restart of the same build");

    // The upgrade: the chat comes back, the page learns of the new build and offers to reload.
    await server.stop();
    upgradable.upgrade();
    await server.start();
    const bar = page.getByRole("status").filter({ hasText: "DREADCAST has been updated." });
    await bar.waitFor({ timeout: 20_000 });
    await chatLine(page, "before the upgrade").waitFor();
    await screenshotViewportWidths(page, "update-bar-live");

    // "Not now" puts it away; the stream and chat go on.
    await bar.getByRole("button", { name: "Not now" }).click();
    await bar.waitFor({ state: "detached" });
    await say(page, "still here");
    await chatLine(page, "still here").waitFor();

    // Reload brings the page of the new build, with no bar. (Its chat is not looked at: Chromium does not
    // let a page the test served itself open a socket to a loopback address.)
    await page.reload();
    await page.getByRole("log", { name: "Chat messages" }).waitFor();
    assert.equal(await pageBuild(page), NEXT_BUILD);
    assert.equal(await page.locator(".update-bar").count(), 0);
    assert.deepEqual(pageErrors.map(String), []);
  } catch (error) {
    await screenshot(page, `failure-${slug(LIVE)}`).catch(() => {});
    throw error;
  } finally {
    await context.close();
    await browser.close();
    await server.close();
  }
});
