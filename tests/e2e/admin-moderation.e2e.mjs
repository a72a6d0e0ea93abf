import assert from "node:assert/strict";
import { MOBILE } from "./support/browser.mjs";
import { enterAsViewer, generateCode, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { chatLine, enterStream, openViewer, say } from "./support/live.mjs";

const app = useApp();

/** Sends moderator frames over the page's own /ws (the admin moderates as themself); resolves with any errors. */
async function moderate(page, frames) {
  return page.evaluate(
    (list) =>
      new Promise((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`);
        const errors = [];
        ws.addEventListener("message", (event) => {
          const frame = JSON.parse(event.data);
          if (frame.type === "error") errors.push(frame.message);
        });
        // eslint-disable-next-line @typescript-eslint/no-misused-promises -- in the page: the frames go 120 ms apart
        ws.addEventListener("open", async () => {
          for (const frame of list) {
            ws.send(JSON.stringify(frame));
            await new Promise((r) => setTimeout(r, 120));
          }
          setTimeout(() => {
            ws.close();
            resolve(errors);
          }, 300);
        });
      }),
    frames,
  );
}

const logRow = (page, text) => page.locator(".moderation-log tbody tr").filter({ hasText: text });

app.browserTest("moderation: chat rules saved from the form, timeouts lifted, the log searched, filtered and exported", async ({ page }) => {
  await logIn(page, "/admin/moderation");
  await page.getByRole("heading", { level: 1, name: "Moderation" }).waitFor();
  await page.getByText("Nothing moderated yet").waitFor();
  await page.getByText("Nobody is timed out").waitFor();

  await page.getByLabel("Slow mode").selectOption("10");
  await page.getByLabel("Blocked words").fill("hate\nkill yourself\nspoiler");
  await page.getByText("3 of 2000.").waitFor();
  await page.getByText("Mask", { exact: true }).click();
  await page.getByRole("switch", { name: "Block links" }).click();
  await page.getByRole("button", { name: "Save Chat Rules" }).click();
  await toastWith(page, "Chat Rules Saved").waitFor();
  const rules = await (await page.request.get("/api/admin/chat-rules")).json();
  assert.deepEqual(rules, { slowModeSeconds: 10, blockedTerms: ["hate", "kill yourself", "spoiler"], filterAction: "mask", blockLinks: true });

  for (const [name, email] of [
    ["Howler", "howl@moor.example"],
    ["Troll", null],
    ["Lurker", null],
  ]) {
    await enterAsViewer(page, (await generateCode(page)).code, name, email ?? undefined);
  }
  const errors = await moderate(page, [
    { type: "timeout_user", username: "Howler", seconds: 600 },
    { type: "timeout_user", username: "Lurker", seconds: 3600 },
    { type: "ban_user", username: "Troll", reason: "slurs in chat" },
  ]);
  assert.deepEqual(errors, []);

  await page.reload();
  await logRow(page, "slurs in chat").getByText("Banned").waitFor();
  await logRow(page, "Howler").getByText("Timed out").waitFor();
  await logRow(page, "added 3 terms").getByText("Chat rules").waitFor();
  await logRow(page, "one message every 10 seconds").getByText("Slow mode").waitFor();
  await page.getByText("5 entries").waitFor();
  const timeouts = page.getByRole("list", { name: "Timed-out viewers" });
  await timeouts.getByText("Howler").waitFor();
  await timeouts.getByText("Lurker").waitFor();
  await screenshotScreen(page, "admin-moderation");
  await assertAccessible(page, "/admin/moderation");

  await page.getByRole("searchbox", { name: "Search the log" }).fill("TROLL");
  await page.getByText("1 of 5 entries").waitFor();
  await page.getByRole("searchbox", { name: "Search the log" }).fill("");
  await page.getByLabel("Action").selectOption("timeout");
  await page.getByText("2 of 5 entries").waitFor();
  assert.equal(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href"), "/api/admin/moderation-log.csv?action=timeout");
  const csv = await (await page.request.get("/api/admin/moderation-log.csv?action=timeout")).text();
  assert.equal(csv.trim().split("\r\n").length, 3);

  await page.getByRole("button", { name: "Lift the timeout of Howler" }).click();
  await toastWith(page, "Timeout Lifted").waitFor();
  await timeouts.getByText("Howler").waitFor({ state: "detached" });
  await page.getByLabel("Action").selectOption("lift_timeout");
  await logRow(page, "Howler").getByText("Timeout lifted").waitFor();

  assert.equal(await page.getByRole("link", { name: "Chat CSV" }).getAttribute("href"), "/api/admin/chat-export.csv");
  const json = await (await page.request.get(await page.getByRole("link", { name: "Chat JSON" }).getAttribute("href"))).json();
  assert.ok(Array.isArray(json.messages));
});

app.browserTest("users: an admin makes a viewer a moderator and takes it back; a MOD- code's moderator stays", async ({ page }) => {
  await logIn(page, "/admin/users");
  await enterAsViewer(page, (await generateCode(page)).code, "Deputy", "deputy@crypt.example");
  await enterAsViewer(page, (await generateCode(page, { kind: "MOD" })).code, "Sheriff");
  await page.reload();
  const row = (name) => page.locator("tbody tr").filter({ has: page.getByRole("cell", { name, exact: true }) });
  await row("Sheriff").getByText("Mod · code").waitFor();
  // A MOD- code's moderator cannot be made or unmade one here (only Ban is offered, as for anyone).
  assert.equal(
    await row("Sheriff")
      .getByRole("button", { name: /moderator/i })
      .count(),
    0,
  );
  await row("Sheriff")
    .getByRole("button", { name: /^Ban Sheriff/ })
    .waitFor();
  await row("Deputy").getByRole("button", { name: "Make Deputy a moderator" }).click();
  await toastWith(page, "Moderator Added").waitFor();
  await row("Deputy").getByText("Moderator", { exact: true }).waitFor();
  await screenshotScreen(page, "admin-users-moderators");
  await row("Deputy").getByRole("button", { name: "Remove Deputy as moderator" }).click();
  await toastWith(page, "Moderator Removed").waitFor();
  await row("Deputy").getByRole("button", { name: "Make Deputy a moderator" }).waitFor();
  await page.goto("/admin/moderation");
  await logRow(page, "Deputy").getByText("Moderator removed").waitFor();
  await logRow(page, "Deputy").getByText("Made moderator").waitFor();
});

app.browserTest("a viewer made a moderator on the Users screen gets the tools in their open chat at once, and loses them", async ({ page, context }) => {
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(viewer.page, "Promoted");
    await say(viewer.page, "just a viewer so far");
    const line = chatLine(viewer.page, "just a viewer so far");
    await line.waitFor();
    assert.equal(await line.getByRole("button").count(), 0);
    await logIn(page, "/admin/users");
    const row = page.locator("tbody tr").filter({ has: page.getByRole("cell", { name: "Promoted", exact: true }) });
    await row.getByRole("button", { name: "Make Promoted a moderator" }).click();
    await viewer.page.locator(".stream-mod-badge").waitFor({ state: "attached" });
    await line.getByRole("button", { name: "Pin message from Promoted" }).waitFor();
    await viewer.page.getByRole("combobox", { name: "Slow mode" }).waitFor();
    await row.getByRole("button", { name: "Remove Promoted as moderator" }).click();
    await viewer.page.getByRole("combobox", { name: "Slow mode" }).waitFor({ state: "detached" });
    assert.equal(await line.getByRole("button").count(), 0);
  } finally {
    await viewer.context.close();
  }
});

app.browserTest("banned users: each ban shows its reason and who banned", async ({ page }) => {
  await logIn(page, "/admin/banned-users");
  await page.getByText("Troll").waitFor();
  await page.getByText("“slurs in chat”").waitFor();
  await page.getByText(/Banned by gravekeeper/).waitFor();
  await screenshotScreen(page, "admin-banned-users-reasons");
});
