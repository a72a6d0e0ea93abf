import assert from "node:assert/strict";
import { MOBILE } from "./support/browser.mjs";
import { failRoute, logIn, makePng, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { enterStream, openViewer, PLAYER_URL } from "./support/live.mjs";

const app = useApp();
const PATH = "/admin/settings";
const DEFAULT_THUMBNAIL = "/assets/default-thumbnail.jpg";

const adminSettings = async (page) => (await page.request.get("/api/admin/livestream-settings")).json();
const saveButton = (page) => page.getByRole("button", { name: "Save Settings" });
const sourceCard = (page) => page.getByRole("form", { name: "Stream source" });
const saveSource = (page) => sourceCard(page).getByRole("button", { name: "Save Stream Source" });
const card = (page, title) => page.locator("section.admin-section").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

/** Waits for a switch to show `checked` ("true" / "false"). */
async function switchedTo(toggle, checked) {
  await toggle.page().waitForFunction(([el, value]) => el.getAttribute("aria-checked") === value, [await toggle.elementHandle(), checked]);
}

async function openSettings(page) {
  await logIn(page, PATH);
  await page.getByLabel("Event title").waitFor();
}

app.browserTest("every field's validation message", async ({ page }) => {
  await openSettings(page);
  assert.equal(await page.getByLabel("Donation goal (GBP)").inputValue(), "50");
  assert.equal(await page.getByLabel("Thumbnail path").inputValue(), DEFAULT_THUMBNAIL);
  await page.getByText("Recommended size 1280x720").waitFor();
  const goal = page.getByLabel("Donation goal (GBP)");
  assert.equal(await goal.getAttribute("min"), "1");
  assert.equal(await goal.getAttribute("step"), "0.01");
  assert.equal(await page.getByLabel("Start date").getAttribute("type"), "datetime-local");

  await page.getByLabel("Event title").fill("   ");
  await page.getByLabel("Thumbnail path").fill("");
  await goal.fill("0.5");
  await page.getByLabel("Contact e-mail").fill("help@");
  await page.getByLabel("Terms of service link").fill("ftp://files.example.com/terms");
  await page.getByLabel("Instagram link").fill("https://example.com/nightowl");
  await saveButton(page).click();
  await page.getByText("Event title is required").waitFor();
  await page.getByText("Thumbnail path is required").waitFor();
  await page.getByText("Donation goal must be at least 1").waitFor();
  await page.getByText("Please enter a valid email address").waitFor();
  await page.getByText("Terms of service link must be an http:// or https:// address").waitFor();
  await page.getByText("The Instagram link must be on instagram.com").waitFor();
  await page.getByText("You have unsaved changes in Event, Thumbnail, Price & donations and Organiser.").waitFor();
  await screenshotScreen(page, "admin-settings-errors");

  await goal.fill("");
  await saveButton(page).click();
  await page.getByText("Donation goal must be at least 1").waitFor();
  // The embed URL's validation message, from the one Embed URL field: the Stream source card's.
  const embed = sourceCard(page).getByLabel("Embed URL", { exact: true });
  for (const bad of ["not a url", "ftp://files.example.com/stream"]) {
    await embed.fill(bad);
    await saveSource(page).click();
    await sourceCard(page).getByText("Please enter a valid embed URL").waitFor();
  }

  const saved = await adminSettings(page);
  assert.equal(saved.thumbnailUrl, DEFAULT_THUMBNAIL, "nothing invalid was saved");
  await assertAccessible(page, "/admin/settings with errors");
});

app.browserTest("a YouTube, Twitch or Vimeo page link is saved as its player; a page that is no player is refused saying what to paste", async ({ page }) => {
  await openSettings(page);
  const form = sourceCard(page);
  const field = form.getByLabel("Embed URL", { exact: true });
  const host = new URL(page.url()).hostname;
  const cases = [
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://www.twitch.tv/nightshift", `https://player.twitch.tv/?channel=nightshift&parent=${host}`],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
  ];
  for (const [link, player] of cases) {
    await field.fill(link);
    const preview = form.getByRole("status").filter({ hasText: "That is a page link. It will be saved as its player:" });
    await preview.getByText(player, { exact: true }).waitFor();
    if (link.includes("twitch")) await screenshotScreen(page, "admin-settings-embed-preview");
    await saveSource(page).click();
    const saved = toastWith(page, "Stream Source Saved");
    await saved.getByText(`Saved as the player ${player}.`).waitFor();
    // The toast sits over the card's button on a phone-sized or short screen.
    await saved.getByRole("button", { name: "Close" }).click();
    await saved.waitFor({ state: "detached" });
    assert.equal((await adminSettings(page)).embedUrl, player);
    assert.equal(await field.inputValue(), player, "the field shows what was saved");
    await preview.waitFor({ state: "detached" });
  }

  // A site's home page is no player: the card says what to paste before and after Save.
  await field.fill("https://live.example.org");
  const advice =
    "That is a site's home page, not a player. Paste the player's embed address: for an Owncast server that is https://live.example.org/embed/video; other services show it under Share → Embed.";
  await form.getByRole("status").filter({ hasText: advice }).waitFor();
  await saveSource(page).click();
  await form.getByRole("alert").filter({ hasText: advice }).waitFor();
  assert.equal((await adminSettings(page)).embedUrl, "https://player.vimeo.com/video/76979871", "nothing was saved");
});

app.browserTest("saving the settings after the stream changed keeps the new stream, also from a page opened before", async ({ page }) => {
  await openSettings(page);
  // The page the admin left open, and another where they change the stream meanwhile.
  const other = await page.context().newPage();
  await other.goto(PATH);
  await sourceCard(other).getByLabel("Embed URL", { exact: true }).fill("https://vimeo.com/76979871");
  await saveSource(other).click();
  await toastWith(other, "Stream Source Saved").waitFor();
  await other.close();

  await page.getByLabel("Event title").fill("The Night Returns");
  const [put] = await Promise.all([page.waitForRequest((r) => r.url().endsWith("/api/admin/livestream-settings") && r.method() === "PUT"), saveButton(page).click()]);
  await toastWith(page, "Settings Saved").waitFor();
  assert.deepEqual(put.postDataJSON(), { eventTitle: "The Night Returns" }, "only what was changed is sent");
  const saved = await adminSettings(page);
  assert.equal(saved.eventTitle, "The Night Returns");
  assert.equal(saved.embedUrl, "https://player.vimeo.com/video/76979871", "the stream changed elsewhere stays");

  // In the same page: the Stream source card, then Save Settings.
  await sourceCard(page).getByLabel("Embed URL", { exact: true }).fill("https://youtu.be/dQw4w9WgXcQ");
  await saveSource(page).click();
  await toastWith(page, "Stream Source Saved").waitFor();
  await page.getByLabel("Event title").fill("The Night Returns Again");
  await saveButton(page).click();
  await page.getByText("All changes saved.").waitFor();
  assert.equal((await adminSettings(page)).embedUrl, "https://www.youtube.com/embed/dQw4w9WgXcQ");
  assert.equal(await page.getByLabel("Embed URL").count(), 1, "one Embed URL field on the screen");
});

app.browserTest("saving sends the goal in pence and the start date as ISO; the form reloads with them", async ({ page }) => {
  await openSettings(page);
  await page.getByLabel("Event title").fill("The Hollow Night");
  await page.getByLabel("Donation goal (GBP)").fill("123.45");
  await page.getByLabel("Start date").fill("2031-10-31T21:30");
  const active = page.getByRole("switch", { name: "Livestream active" });
  const wasActive = (await active.getAttribute("aria-checked")) === "true";
  await active.click();
  assert.equal(await active.getAttribute("aria-checked"), String(!wasActive));

  const [put] = await Promise.all([page.waitForRequest((r) => r.url().endsWith("/api/admin/livestream-settings") && r.method() === "PUT"), saveButton(page).click()]);
  await toastWith(page, "Settings Saved").waitFor();
  await page.getByText("All changes saved.").waitFor();
  const expectedIso = await page.evaluate(() => new Date("2031-10-31T21:30").toISOString());
  assert.deepEqual(put.postDataJSON(), {
    eventTitle: "The Hollow Night",
    donationGoal: 12345,
    isActive: !wasActive,
    startDate: expectedIso,
  });
  const saved = await adminSettings(page);
  assert.equal(saved.donationGoal, 12345);
  assert.equal(saved.startDate, expectedIso);
  assert.equal(saved.isActive, !wasActive);

  await page.reload();
  await page.getByLabel("Event title").waitFor();
  assert.equal(await page.getByLabel("Event title").inputValue(), "The Hollow Night");
  assert.equal(await page.getByLabel("Donation goal (GBP)").inputValue(), "123.45");
  assert.equal(await page.getByLabel("Start date").inputValue(), "2031-10-31T21:30");
  const publicSettings = await (await page.request.get("/api/livestream-settings")).json();
  assert.equal(publicSettings.eventTitle, "The Hollow Night");
  assert.equal(publicSettings.donationGoal, 12345);
  await screenshotScreen(page, "admin-settings");
  await assertAccessible(page, PATH);
});

app.browserTest("thumbnail: images only, an upload is saved at once and shown on the home page, then reset", async ({ page }) => {
  await openSettings(page);
  const fileInput = page.getByTestId("thumbnail-file");
  assert.equal(await fileInput.getAttribute("accept"), "image/*");

  await fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
  const invalid = toastWith(page, "Invalid file type");
  await invalid.getByText("Please upload an image file (JPEG, PNG, GIF, etc.).").waitFor();

  // Named and typed as an image, but not one: the server refuses it.
  await fileInput.setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("this is not a png") });
  await toastWith(page, "Failed to upload thumbnail.").getByText("Please upload an image file (JPEG, PNG, GIF, etc.).").waitFor();

  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Upload Image" }).click()]);
  await chooser.setFiles({ name: "night.png", mimeType: "image/png", buffer: makePng() });
  await toastWith(page, "Upload Successful").waitFor();
  const uploaded = (await adminSettings(page)).thumbnailUrl;
  assert.notEqual(uploaded, DEFAULT_THUMBNAIL);
  assert.equal(await page.getByLabel("Thumbnail path").inputValue(), uploaded);
  const preview = page.getByRole("img", { name: "Thumbnail preview" });
  await page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 160, await preview.elementHandle());
  await page.getByText("All changes saved.").waitFor();
  await screenshotScreen(page, "admin-settings-uploaded");

  const home = await page.context().newPage();
  await home.goto("/");
  const banner = home.getByRole("img", { name: /event banner/ });
  await banner.waitFor();
  assert.equal(await banner.getAttribute("src"), uploaded);
  await home.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 160, await banner.elementHandle());
  await home.close();

  await page.getByRole("button", { name: "Reset Thumbnail" }).click();
  await toastWith(page, "Reset Successful").waitFor();
  assert.equal((await adminSettings(page)).thumbnailUrl, DEFAULT_THUMBNAIL);
  assert.equal(await page.getByLabel("Thumbnail path").inputValue(), DEFAULT_THUMBNAIL);
  assert.equal(await page.getByRole("button", { name: "Reset Thumbnail" }).isDisabled(), true);
});

app.browserTest("settings failures: load, save, upload's save and reset each show their toast", async ({ page }) => {
  await logIn(page);
  const restoreLoad = await failRoute(page, "/api/admin/livestream-settings", "GET");
  await page.goto(PATH);
  await toastWith(page, "Failed to fetch livestream settings.").waitFor();
  await restoreLoad();
  await page.getByRole("button", { name: "Try again" }).click();
  await page.getByLabel("Event title").waitFor();

  // A custom thumbnail first, so that there is something to reset.
  await page.getByTestId("thumbnail-file").setInputFiles({ name: "a.png", mimeType: "image/png", buffer: makePng(32, 18) });
  await toastWith(page, "Upload Successful").waitFor();

  const restoreSave = await failRoute(page, "/api/admin/livestream-settings", "PUT");
  await saveButton(page).click();
  await toastWith(page, "Failed to update livestream settings.").waitFor();
  await page.getByRole("button", { name: "Reset Thumbnail" }).click();
  await toastWith(page, "Failed to reset thumbnail.").waitFor();
  await page.getByTestId("thumbnail-file").setInputFiles({ name: "b.png", mimeType: "image/png", buffer: makePng(48, 27) });
  await toastWith(page, "Failed to update settings with new thumbnail.").waitFor();
  await restoreSave();
  assert.notEqual((await adminSettings(page)).thumbnailUrl, DEFAULT_THUMBNAIL);
});

app.browserTest("fake viewers: a number from 0 to 5000 when enabled; the count moves there and the stats follow", async ({ page }) => {
  await openSettings(page);
  const toggle = page.getByRole("switch", { name: "Fake viewers enabled" });
  const target = page.getByLabel("Target viewers");
  const status = page.getByTestId("fake-viewers-status");
  assert.equal(await toggle.getAttribute("aria-checked"), "false");
  await status.getByText(/Showing 0 fake viewers now/).waitFor();

  for (const bad of ["", "5001", "12.5"]) {
    await target.fill(bad);
    await toggle.click();
    const invalid = toastWith(page, "Invalid input");
    await invalid.getByText("Please enter a valid number of viewers").waitFor();
    assert.equal(await toggle.getAttribute("aria-checked"), "false");
    await invalid.getByRole("button", { name: "Close" }).click();
    await invalid.waitFor({ state: "detached" });
  }

  await target.fill("250");
  const [enable] = await Promise.all([page.waitForRequest((r) => r.url().endsWith("/api/admin/fake-viewers")), toggle.click()]);
  assert.deepEqual(enable.postDataJSON(), { enabled: true, targetViewers: 250 });
  await switchedTo(toggle, "true");
  await status.getByText(/target 250/).waitFor();
  await status.getByText(/Showing 250 fake viewers now/).waitFor({ timeout: 20_000 });
  const publicSettings = await (await page.request.get("/api/livestream-settings")).json();
  assert.equal(publicSettings.viewerCount, 250, "viewers see the fake viewers in the count");

  // A viewer on /livestream counts the fake viewers and themself.
  const viewer = await openViewer(page.context().browser(), new URL(page.url()).origin);
  await enterStream(viewer.page, "Watcher");
  await viewer.page.waitForFunction(() => [...document.querySelectorAll(".stream-stat")].some((stat) => stat.textContent === "Viewers: 251"));
  await viewer.context.close();
  await screenshotScreen(page, "admin-settings-fake-viewers");

  await target.fill("120");
  const [update] = await Promise.all([page.waitForRequest((r) => r.url().endsWith("/api/admin/fake-viewers")), page.getByRole("button", { name: "Update Target" }).click()]);
  assert.deepEqual(update.postDataJSON(), { enabled: true, targetViewers: 120 });
  await status.getByText(/Showing 120 fake viewers now/).waitFor({ timeout: 20_000 });

  await page.goto("/admin/dashboard");
  const fake = page.locator("article").filter({ has: page.getByRole("heading", { name: "Fake viewers" }) });
  await fake.getByText("Enabled").waitFor();
  await fake.getByText("120", { exact: true }).first().waitFor();
  await page.goto(PATH);

  const [disable] = await Promise.all([page.waitForRequest((r) => r.url().endsWith("/api/admin/fake-viewers")), toggle.click()]);
  assert.deepEqual(disable.postDataJSON(), { enabled: false });
  await switchedTo(toggle, "false");
  await status.getByText(/Showing 0 fake viewers now/).waitFor({ timeout: 20_000 });
});

app.browserTest(
  "on a phone the settings are one column without sideways scrolling",
  async ({ page }) => {
    await openSettings(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    await sourceCard(page).getByLabel("Embed URL", { exact: true }).fill("https://www.twitch.tv/nightshift");
    await sourceCard(page).getByText("It will be saved as its player:").waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  },
  { viewport: MOBILE },
);

app.browserTest("each card says how it is saved, and is marked while it holds unsaved changes", async ({ page }) => {
  await openSettings(page);
  const notes = {
    Event: "Saved with Save Settings",
    "Price & donations": "Saved with Save Settings",
    Organiser: "Saved with Save Settings",
    Thumbnail: "Upload and Reset save at once; a typed path with Save Settings",
    "Fake viewers": "Saves at once: the switch and Update Target",
    "Stream source": "Saved with its own button, Save Stream Source",
  };
  for (const [title, note] of Object.entries(notes)) await card(page, title).getByText(note, { exact: true }).waitFor();
  await page.getByText("All changes saved.").waitFor();

  await page.getByLabel("Organiser name").fill("Crypt Keepers");
  await card(page, "Organiser").getByText("Unsaved changes · saved with Save Settings").waitFor();
  await page.getByText("You have unsaved changes in Organiser.").waitFor();
  assert.equal(await card(page, "Event").getByText("Unsaved changes").count(), 0);
  await screenshotScreen(page, "admin-settings-unsaved");
  await saveButton(page).click();
  await toastWith(page, "Settings Saved").waitFor();
  await card(page, "Organiser").getByText("Saved with Save Settings", { exact: true }).waitFor();
  await page.getByText("All changes saved.").waitFor();
});

app.browserTest("the organiser's details: the footer's links go there once set, the rest stay placeholders", async ({ page }) => {
  const home = await page.context().newPage();
  await home.goto("/");
  const footer = home.locator("footer.site-footer");
  await footer.getByText("Privacy Policy").waitFor();
  for (const anchor of await footer.locator("a").all()) assert.equal(await anchor.getAttribute("href"), null, "an unset link is an anchor with no target");

  await openSettings(page);
  await page.getByLabel("Organiser name").fill("Night Owl Events");
  await page.getByLabel("Contact e-mail").fill("help@nightowl.example");
  await page.getByLabel("Privacy policy link").fill("https://nightowl.example/privacy");
  await page.getByLabel("Terms of service link").fill("https://nightowl.example/terms");
  await page.getByLabel("Instagram link").fill("https://www.instagram.com/nightowl");
  await page.getByLabel("Discord link").fill("https://discord.gg/nightowl");
  const [put] = await Promise.all([page.waitForRequest((r) => r.url().endsWith("/api/admin/livestream-settings") && r.method() === "PUT"), saveButton(page).click()]);
  await toastWith(page, "Settings Saved").waitFor();
  assert.deepEqual(put.postDataJSON(), {
    organizerName: "Night Owl Events",
    contactEmail: "help@nightowl.example",
    privacyUrl: "https://nightowl.example/privacy",
    termsUrl: "https://nightowl.example/terms",
    socialLinks: { instagram: "https://www.instagram.com/nightowl", discord: "https://discord.gg/nightowl" },
  });
  await screenshotScreen(page, "admin-settings-organiser");

  await home.reload();
  const link = (name) => footer.getByRole("link", { name });
  await link("Privacy Policy").waitFor();
  for (const [name, href] of [
    ["Privacy Policy", "https://nightowl.example/privacy"],
    ["Terms of Service", "https://nightowl.example/terms"],
    ["Instagram (opens in a new tab)", "https://www.instagram.com/nightowl"],
    ["Discord (opens in a new tab)", "https://discord.gg/nightowl"],
  ]) {
    assert.equal(await link(name).getAttribute("href"), href);
    assert.equal(await link(name).getAttribute("target"), "_blank");
    assert.equal(await link(name).getAttribute("rel"), "noopener");
  }
  assert.equal(await link("Contact").getAttribute("href"), "mailto:help@nightowl.example");
  // Only the organiser's own networks: no placeholder icon beside them.
  assert.deepEqual(
    await footer
      .getByRole("list", { name: "Social media" })
      .locator("a")
      .evaluateAll((links) => links.map((a) => a.textContent)),
    ["Instagram (opens in a new tab)", "Discord (opens in a new tab)"],
  );
  await footer.getByText("© 2026 Night Owl Events. All rights reserved.".replace("2026", String(new Date().getFullYear()))).waitFor();
  await home.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await screenshotScreen(home, "site-footer-organiser");
  await assertAccessible(home, "/ with the organiser's links");
  await home.close();

  // A buyer whose code is refused on a second device is told where to write.
  const code = (await (await page.request.post("/api/admin/generate-access-code", { data: { kind: "SKP" } })).json()).code;
  const owner = await openViewer(page.context().browser(), new URL(page.url()).origin);
  await enterStream(owner.page, "FirstOwner", code);
  await owner.context.close();
  const other = await page
    .context()
    .browser()
    .newContext({
      baseURL: new URL(page.url()).origin,
      viewport: MOBILE,
      screen: { width: 412, height: 915 },
      locale: "de-DE",
      timezoneId: "Asia/Tokyo",
    });
  try {
    const second = await other.newPage();
    await second.goto("/access");
    await second.getByLabel("Access code", { exact: true }).fill(code);
    await second.getByLabel("Chat username", { exact: true }).fill("SecondOwner");
    await second.getByRole("button", { name: "ENTER THE STREAM" }).click();
    const refusal = second.getByRole("alert").filter({ hasText: "Your access code cannot be used on this device. Each code is limited to one device." });
    await refusal.getByText("A new phone or browser? Write to Night Owl Events at help@nightowl.example with your access code.").waitFor();
    assert.equal(await refusal.getByRole("link", { name: "help@nightowl.example" }).getAttribute("href"), "mailto:help@nightowl.example");
    await screenshotScreen(second, "access-wrong-device-contact");
  } finally {
    await other.close();
  }
});

app.browserTest("Livestream active off: viewers see the stream is not live and no player; on: the player", async ({ page }) => {
  await openSettings(page);
  const active = page.getByRole("switch", { name: "Livestream active" });
  if ((await active.getAttribute("aria-checked")) === "true") await active.click();
  await page.getByText("Off: the doors are closed. Pass holders see no player; what you publish is a rehearsal only the panel shows.").waitFor();
  await saveButton(page).click();
  await toastWith(page, "Settings Saved").waitFor();
  await sourceCard(page).getByLabel("Embed URL", { exact: true }).fill(PLAYER_URL);
  await saveSource(page).click();
  await toastWith(page, "Stream Source Saved").waitFor();

  const viewer = await openViewer(page.context().browser(), new URL(page.url()).origin);
  await enterStream(viewer.page, "EarlyBird");
  await viewer.page.getByText("Stream Offline").waitFor();
  await viewer.page.getByText("The event will begin soon...").waitFor();
  assert.equal(await viewer.page.locator(".stream-player iframe").count(), 0, "no player while off");
  await screenshotScreen(viewer.page, "livestream-not-active");

  await active.click();
  await page.getByText(/^On: the doors are open/).waitFor();
  await saveButton(page).click();
  await toastWith(page, "Settings Saved").waitFor();
  // The open page is told at once and shows the player.
  await viewer.page.locator(".stream-player iframe").waitFor();
  assert.equal(await viewer.page.getByText("Stream Offline").count(), 0);
  await viewer.context.close();
});
