/**
 * The owner cancels the event from the night card, before it went live: the dialog says what follows and
 * takes a word to the buyers; the first try fails on the way and says so; then the home page says the
 * event is cancelled with that word and whom to write to, nothing is sold, a pass holder's stream page says
 * it will not be streamed, and opening the doors again takes it back.
 */
import assert from "node:assert/strict";
import { ADMIN, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { MOBILE, screenshotWidths } from "./support/browser.mjs";
import { toastWith, until, useApp } from "./support/e2e.mjs";
import { adminApi, openViewer } from "./support/live.mjs";

const app = useApp();
const NOTE = "The barn flooded on Tuesday.\nEvery pass is being refunded this week.";

app.browserTest("cancelling the event: the panel asks and says what follows, the pages and the sales follow, and it can be taken back", async ({ page, context }) => {
  await logIn(page);
  const admin = await adminApi(app.url, ADMIN);
  await admin.updateSettings({ isActive: false, startDate: new Date(Date.now() + 3 * 24 * 3600_000).toISOString() });
  await admin.saveSettings({ organizerName: "Night Owl Events", contactEmail: "help@nightowl.example" });

  await page.goto("/admin/settings");
  const night = page.getByRole("form", { name: "The night" });
  await night.getByText("Doors closed").waitFor();
  let failed = false;
  await page.route("**/api/admin/event/cancel", (route) => {
    if (failed) return route.fallback();
    failed = true;
    return route.abort("connectionreset");
  });
  await night.getByRole("button", { name: "Cancel the event" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel the event?" });
  await dialog.getByText("nothing is sold from now on", { exact: false }).waitFor();
  await dialog.getByLabel("A word to the buyers (optional)").fill(NOTE);
  await dialog.getByText(`${NOTE.length} of 500.`, { exact: false }).waitFor();
  await screenshotScreen(page, "event-cancel-confirm");
  await dialog.getByRole("button", { name: "Cancel the event" }).click();
  await toastWith(page, "Failed to cancel the event.").waitFor();
  assert.equal((await admin.publicSettings()).night.cancelledAt, null, "a failed cancel leaves the event as it was");
  await dialog.getByRole("button", { name: "Cancel the event" }).click();
  await toastWith(page, "Event Cancelled").waitFor();
  await dialog.waitFor({ state: "detached" });
  await night.getByText("Cancelled", { exact: true }).waitFor();
  await night.getByText("The event is cancelled. Nothing is sold", { exact: false }).waitFor();
  await night.getByRole("button", { name: "Open the doors again" }).waitFor();
  assert.equal(await night.getByRole("button", { name: "Cancel the event" }).count(), 0);
  await screenshotScreen(page, "event-cancel-panel");

  // A visitor on the home page: cancelled, the organiser's word, whom to write to, nothing to buy.
  const visitor = await openViewer(context.browser(), app.url);
  const home = visitor.page;
  await home.goto("/");
  const card = home.getByRole("region", { name: "This event has been cancelled" });
  await card.getByText("CANCELLED", { exact: true }).waitFor();
  await card.getByText("The barn flooded on Tuesday.", { exact: false }).waitFor();
  await card.getByText("— Night Owl Events").waitFor();
  assert.equal(await card.getByRole("link", { name: "help@nightowl.example" }).getAttribute("href"), "mailto:help@nightowl.example");
  await home.getByRole("heading", { name: "Passes are no longer sold" }).waitFor();
  await home.getByText("If you bought a pass, quote its code when you write to the organiser.").waitFor();
  assert.equal(await home.getByRole("button", { name: /BUY NOW/ }).count(), 0);
  // Nothing to put in a calendar; sharing the page still tells people.
  assert.equal(await home.getByRole("link", { name: "Add to calendar" }).count(), 0);
  await home.getByRole("button", { name: "Share" }).waitFor();
  await screenshotWidths(home, "event-cancel-home");

  // A pass holder on the stream page (a browser of their own, not the panel's): it will not be streamed.
  const holderBrowser = await openViewer(context.browser(), app.url, MOBILE);
  const holder = holderBrowser.page;
  await holder.goto("/design");
  const code = await holder.evaluate(async () => (await (await fetch("/api/test/generate-access-code")).json()).accessCode);
  await holder.evaluate((c) => {
    localStorage.setItem("accessCode", c);
    localStorage.setItem("username", "Wren");
  }, code);
  await holder.goto("/livestream");
  await holder.getByText("The Event Was Cancelled", { exact: true }).waitFor({ timeout: 20_000 });
  await holder.getByText("The chat is closed: there will be no live night.").waitFor();
  // A pass holder, not the panel's admin: the header names the viewer (shown at desktop widths).
  await holder.getByText("Watching as Wren", { exact: false }).waitFor({ state: "attached" });
  await screenshotWidths(holder, "event-cancel-stream");
  await holderBrowser.context.close();

  // Taken back from the panel: the home page counts down again, passes on sale.
  await night.getByRole("button", { name: "Open the doors again" }).click();
  await toastWith(page, "Doors Open").waitFor();
  await until("not cancelled", async () => (await admin.publicSettings()).night.cancelledAt === null);
  await home.reload();
  await home.getByRole("button", { name: /BUY NOW/ }).waitFor();
  await home.getByRole("link", { name: "Add to calendar" }).waitFor();
  assert.equal(await home.getByRole("region", { name: "This event has been cancelled" }).count(), 0);
  await visitor.context.close();
});
