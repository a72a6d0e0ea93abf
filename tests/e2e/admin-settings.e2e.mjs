import assert from "node:assert/strict";
import { MOBILE } from "./support/browser.mjs";
import { failRoute, logIn, makePng, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { enterStream, openViewer } from "./support/live.mjs";

const app = useApp();
const PATH = "/admin/settings";
const DEFAULT_THUMBNAIL = "/assets/default-thumbnail.jpg";

const adminSettings = async (page) => (await page.request.get("/api/admin/livestream-settings")).json();
const saveButton = (page) => page.getByRole("button", { name: "Save Settings" });

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
  await page.getByLabel("Embed URL").fill("not a url");
  await goal.fill("0.5");
  await saveButton(page).click();
  await page.getByText("Event title is required").waitFor();
  await page.getByText("Thumbnail path is required").waitFor();
  await page.getByText("Please enter a valid embed URL").waitFor();
  await page.getByText("Donation goal must be at least 1").waitFor();
  await page.getByText("You have unsaved changes.").waitFor();
  await screenshotScreen(page, "admin-settings-errors");

  await goal.fill("");
  await saveButton(page).click();
  await page.getByText("Donation goal must be at least 1").waitFor();
  await page.getByLabel("Embed URL").fill("ftp://files.example.com/stream");
  await saveButton(page).click();
  await page.getByText("Please enter a valid embed URL").waitFor();

  const saved = await adminSettings(page);
  assert.equal(saved.thumbnailUrl, DEFAULT_THUMBNAIL, "nothing invalid was saved");
  await assertAccessible(page, "/admin/settings with errors");
});

app.browserTest("pasting a YouTube, Twitch, Vimeo or Owncast page link offers its embed URL", async ({ page }) => {
  await openSettings(page);
  const field = page.getByLabel("Embed URL");
  const host = new URL(page.url()).hostname;
  const cases = [
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "YouTube", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "YouTube", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/live/dQw4w9WgXcQ", "YouTube", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://www.twitch.tv/nightshift", "Twitch", `https://player.twitch.tv/?channel=nightshift&parent=${host}`],
    ["https://vimeo.com/76979871", "Vimeo", "https://player.vimeo.com/video/76979871"],
    ["https://live.example.org", "Owncast", "https://live.example.org/embed/video"],
  ];
  for (const [link, provider, embed] of cases) {
    await field.fill(link);
    const offer = page.getByRole("status").filter({ hasText: `That is a ${provider} page link` });
    await offer.getByText(embed, { exact: true }).waitFor();
    if (provider === "Twitch") await screenshotScreen(page, "admin-settings-embed-suggestion");
    await offer.getByRole("button", { name: "Use embed URL" }).click();
    assert.equal(await field.inputValue(), embed);
    await offer.waitFor({ state: "detached" });
  }
  await saveButton(page).click();
  await toastWith(page, "Settings Saved").waitFor();
  assert.equal((await adminSettings(page)).embedUrl, "https://live.example.org/embed/video");
});

app.browserTest("saving sends the goal in pence and the start date as ISO; the form reloads with them", async ({ page }) => {
  await openSettings(page);
  await page.getByLabel("Event title").fill("The Hollow Night");
  await page.getByLabel("Embed URL").fill("https://player.vimeo.com/video/76979871");
  await page.getByLabel("Donation goal (GBP)").fill("123.45");
  await page.getByLabel("Start date").fill("2031-10-31T21:30");
  const active = page.getByRole("switch", { name: "Livestream active" });
  const wasActive = (await active.getAttribute("aria-checked")) === "true";
  await active.click();
  assert.equal(await active.getAttribute("aria-checked"), String(!wasActive));

  const [put] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/admin/livestream-settings") && r.method() === "PUT"),
    saveButton(page).click(),
  ]);
  await toastWith(page, "Settings Saved").waitFor();
  await page.getByText("All changes saved.").waitFor();
  const expectedIso = await page.evaluate(() => new Date("2031-10-31T21:30").toISOString());
  assert.deepEqual(put.postDataJSON(), {
    eventTitle: "The Hollow Night",
    thumbnailUrl: DEFAULT_THUMBNAIL,
    embedUrl: "https://player.vimeo.com/video/76979871",
    donationGoal: 12345,
    isActive: !wasActive,
    startDate: expectedIso,
    accessPrice: 100,
    currency: "gbp",
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
  await toastWith(page, "Failed to upload thumbnail.").waitFor();

  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Upload Image" }).click()]);
  await chooser.setFiles({ name: "night.png", mimeType: "image/png", buffer: makePng() });
  await toastWith(page, "Upload Successful").waitFor();
  const uploaded = (await adminSettings(page)).thumbnailUrl;
  assert.notEqual(uploaded, DEFAULT_THUMBNAIL);
  assert.equal(await page.getByLabel("Thumbnail path").inputValue(), uploaded);
  const preview = page.getByRole("img", { name: "Thumbnail preview" });
  await page.waitForFunction((img) => img.complete && img.naturalWidth === 160, await preview.elementHandle());
  await page.getByText("All changes saved.").waitFor();
  await screenshotScreen(page, "admin-settings-uploaded");

  const home = await page.context().newPage();
  await home.goto("/");
  const banner = home.getByRole("img", { name: /event banner/ });
  await banner.waitFor();
  assert.equal(await banner.getAttribute("src"), uploaded);
  await home.waitForFunction((img) => img.complete && img.naturalWidth === 160, await banner.elementHandle());
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
  const [update] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/admin/fake-viewers")),
    page.getByRole("button", { name: "Update Target" }).click(),
  ]);
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
    await page.getByLabel("Embed URL").fill("https://www.twitch.tv/nightshift");
    await page.getByRole("button", { name: "Use embed URL" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  },
  { viewport: MOBILE },
);
