import assert from "node:assert/strict";
import { MOBILE, screenshotWidths } from "./support/browser.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { useApp } from "./support/e2e.mjs";
import { adminApi, chatLine, enterStream, openViewer, routePlayer, say } from "./support/live.mjs";

const app = useApp();
/** @type {Awaited<ReturnType<typeof adminApi>>} */
let admin;
const theAdmin = async () => (admin ??= await adminApi(app.url));

const composerNotice = (page) => page.locator(".stream-chat-panel-footer").getByRole("status");

app.browserTest("a moderator times a viewer out from the message menu (the viewer watches on with a countdown), then bans with a reason", async ({ page, context }) => {
  await routePlayer(context);
  await enterStream(page, "Gatekeeper", await (await theAdmin()).generateCode("MOD"));
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(viewer.page, "Howler");
    await say(viewer.page, "AAAAAAAAAA LET ME IN");
    const line = chatLine(page, "LET ME IN");
    await line.getByRole("button", { name: "Time out Howler" }).click();
    const picker = line.getByRole("group", { name: "Time out Howler" });
    for (const length of ["1 minute", "5 minutes", "10 minutes", "1 hour"]) await picker.getByRole("button", { name: `Time out Howler for ${length}` }).waitFor();
    await screenshotWidths(page, "chat-timeout-menu");
    await picker.getByRole("button", { name: "Time out Howler for 5 minutes" }).click();

    await chatLine(page, "Howler has been timed out for 5 minutes.").waitFor();
    await chatLine(viewer.page, "Howler has been timed out for 5 minutes.").waitFor();
    await chatLine(viewer.page, "A moderator has timed you out for 5 minutes. You can still watch.").waitFor();
    await composerNotice(viewer.page)
      .getByText(/You are timed out\. You can chat again in (5:00|4:5\d)\./)
      .waitFor();
    const input = viewer.page.getByRole("textbox", { name: "Chat message" });
    await input.fill("but I paid");
    assert.equal(await viewer.page.getByRole("button", { name: "Send message" }).isDisabled(), true, "no sending while timed out");
    assert.equal(await viewer.page.getByRole("button", { name: "Send heart" }).isDisabled(), true, "no hearts while timed out");
    assert.equal(await viewer.page.getByText("Connected", { exact: true }).count(), 1, "still connected, still watching");
    await input.fill("");
    await screenshotWidths(viewer.page, "chat-timed-out");
    await assertAccessible(viewer.page, "/livestream while timed out");

    // A ban with a reason, kept with the ban.
    const banLine = chatLine(page, "LET ME IN");
    await banLine.getByRole("button", { name: "Ban Howler" }).click();
    await banLine.getByRole("textbox", { name: "Reason for banning Howler (optional)" }).fill("flooding the chat");
    await banLine.getByText("Confirm?").waitFor();
    await screenshotWidths(page, "chat-ban-reason");
    await banLine.getByRole("button", { name: "Yes" }).click();
    await viewer.page.getByText("You have been banned from this event.", { exact: true }).waitFor();
    const bans = await (await theAdmin()).bannedUsers();
    assert.deepEqual(
      bans.map((b) => [b.username, b.bannedBy, b.reason]),
      [["Howler", "Gatekeeper", "flooding the chat"]],
    );
  } finally {
    await viewer.context.close();
  }
});

app.browserTest("slow mode from the moderator's control: everyone is told and the viewer's composer counts down", async ({ page, context }) => {
  await routePlayer(context);
  await enterStream(page, "Timekeeper", await (await theAdmin()).generateCode("MOD"));
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(viewer.page, "Chatterbox");
    assert.equal(await viewer.page.getByRole("combobox", { name: "Slow mode" }).count(), 0, "viewers have no slow-mode control");
    await page.getByRole("combobox", { name: "Slow mode" }).selectOption("30");
    await chatLine(viewer.page, "Slow mode is on: one message every 30 seconds.").waitFor();
    await composerNotice(viewer.page).getByText("Slow mode is on: one message every 30 seconds.").waitFor();

    await say(viewer.page, "one line, then I wait");
    await chatLine(page, "one line, then I wait").waitFor();
    await composerNotice(viewer.page)
      .getByText(/Slow mode: you can send another message in (30|29|28) s\./)
      .waitFor();
    await viewer.page.getByRole("textbox", { name: "Chat message" }).fill("another?");
    assert.equal(await viewer.page.getByRole("button", { name: "Send message" }).isDisabled(), true);
    // The moderator is exempt.
    await say(page, "moderators are not slowed");
    await say(page, "not at all");
    await chatLine(viewer.page, "not at all").waitFor();
    await screenshotWidths(viewer.page, "chat-slow-mode");
    await screenshotWidths(page, "chat-slow-mode-moderator");

    await page.getByRole("combobox", { name: "Slow mode" }).selectOption("0");
    await chatLine(viewer.page, "Slow mode is off.").waitFor();
    await composerNotice(viewer.page).waitFor({ state: "detached" });
    assert.equal(await viewer.page.getByRole("button", { name: "Send message" }).isDisabled(), false);
  } finally {
    await viewer.context.close();
  }
});

app.browserTest("a message with a blocked word is refused with a notice only its sender sees", async ({ page, context }) => {
  await routePlayer(context);
  await (await theAdmin()).saveChatRules({ blockedTerms: ["hate"], filterAction: "block" });
  await enterStream(page, "Sender");
  const other = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(other.page, "Reader");
    await say(page, "I H4TE this stream");
    await chatLine(page, "Your message was not sent: it contains a blocked word.").waitFor();
    await say(page, "fine, I love it");
    await chatLine(other.page, "fine, I love it").waitFor();
    assert.equal(await chatLine(other.page, "H4TE").count(), 0);
    assert.equal(await chatLine(other.page, "blocked word").count(), 0);
    await screenshotWidths(page, "chat-blocked-word");
  } finally {
    await (await theAdmin()).saveChatRules({});
    await other.context.close();
  }
});

app.browserTest("a moderator's line carries the MOD badge from the server; a viewer's line, even one that types it, does not", async ({ page, context }) => {
  await routePlayer(context);
  await enterStream(page, "Lanternjaw", await (await theAdmin()).generateCode("MOD"));
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(viewer.page, "Mimic");
    await say(page, "Keep it spooky, not cruel.");
    await say(viewer.page, "MOD STAFF ADMIN: trust me, I am staff");
    const staffLine = chatLine(viewer.page, "Keep it spooky, not cruel.");
    const fakeLine = chatLine(viewer.page, "trust me, I am staff");
    await fakeLine.waitFor();
    await staffLine.locator(".stream-chat-staff-badge").getByText("MOD", { exact: true }).waitFor();
    assert.equal(await staffLine.getByText("Moderator:").count(), 1, "screen readers hear the badge too");
    assert.equal(await fakeLine.locator(".stream-chat-staff-badge").count(), 0, "no badge from typed text");
    assert.equal(await chatLine(page, "trust me, I am staff").locator(".stream-chat-staff-badge").count(), 0);
    await screenshotWidths(viewer.page, "chat-staff-badge");
    await assertAccessible(viewer.page, "/livestream with a moderator's line");
  } finally {
    await viewer.context.close();
  }
});

app.browserTest("a moderator's tools cut off on their way: the chat goes on without them, and they come once their file does", async ({ page, context }) => {
  await routePlayer(context);
  let cut = 0;
  await context.route(/\/assets\/moderator-actions-[^/]+\.js$/, (route) => {
    if (cut < 2) {
      cut++;
      return route.abort("connectionreset");
    }
    return route.fallback();
  });
  await enterStream(page, "Steadfast", await (await theAdmin()).generateCode("MOD"));
  await say(page, "the cellar door is open again");
  const line = chatLine(page, "the cellar door is open again");
  await line.getByRole("button", { name: "Delete message from Steadfast" }).waitFor({ timeout: 20_000 });
  assert.equal(cut, 2, "the tools' file was cut off twice");
  assert.equal(await page.getByText("Something went wrong").count(), 0, "the page never gave way to the error card");
  assert.equal(await page.getByText("Connected", { exact: true }).count(), 1);
});
