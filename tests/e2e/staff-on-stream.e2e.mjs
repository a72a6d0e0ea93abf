import assert from "node:assert/strict";
import { DESKTOP, MOBILE, screenshotWidths } from "./support/browser.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { ADMIN, generateCode, logIn } from "./support/admin-panel.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { chatLine, connected, donateByApi, enterStream, openViewer, routePlayer, say } from "./support/live.mjs";

const app = useApp();

/** Console errors and failed (4xx/5xx) responses of a page, from now on. */
function recordProblems(page) {
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return problems;
}

/** A moderator's browser on the stream: a MOD- code made by the signed-in admin `page`. */
async function moderatorOn(adminPage, username, viewport = DESKTOP) {
  const { code } = await generateCode(adminPage, { kind: "MOD" });
  const mod = await openViewer(adminPage.context().browser(), app.url, viewport);
  const problems = recordProblems(mod.page);
  await enterStream(mod.page, username, code);
  return { ...mod, problems };
}

app.browserTest("a signed-in admin opens View Livestream and watches and moderates without a code, as themself with the ADMIN badge", async ({ page, context }) => {
  await routePlayer(context);
  await logIn(page);
  const [stream] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: /View Livestream/ }).click()]);
  const problems = recordProblems(stream);
  await connected(stream);
  assert.equal(new URL(stream.url()).pathname, "/livestream", "not sent to /access");
  assert.equal(await stream.evaluate(() => localStorage.getItem("accessCode")), null, "no code was needed or stored");
  const header = stream.locator(".stream-header-end");
  await header.getByText(ADMIN.username, { exact: true }).waitFor();
  assert.equal(await header.locator('.stream-mod-badge[data-staff="admin"]').textContent(), "ADMIN");

  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(viewer.page, "Heckler");
    await say(stream, "Welcome in. Lights off, sound up.");
    const seen = chatLine(viewer.page, "Lights off, sound up.");
    await seen.locator('.stream-chat-staff-badge[data-staff="admin"]').waitFor();
    assert.equal(await seen.locator(".stream-chat-user").textContent(), ADMIN.username);
    await say(viewer.page, "this is fake, refund me");
    const line = chatLine(stream, "this is fake, refund me");
    await line.hover();
    // The admin's own menu: ban and refund is offered, as to no moderator.
    await line.getByRole("button", { name: "Ban Heckler and refund their pass" }).waitFor();
    await screenshotWidths(stream, "admin-on-stream");
    await assertAccessible(stream, "/livestream as the admin");
    await line.getByRole("button", { name: "Ban Heckler", exact: true }).click();
    await line.getByRole("button", { name: "Yes" }).click();
    await viewer.page.getByText("You have been banned from this event.", { exact: true }).first().waitFor();
    assert.deepEqual(problems, [], "no failed call and no console error on the admin's stream page");

    // On /access the admin is shown the way in without a code.
    await stream.goto("/access");
    const watch = stream.getByRole("link", { name: `Watch as ${ADMIN.username}` });
    await watch.waitFor();
    await screenshotWidths(stream, "admin-on-access");
    await watch.click();
    await waitForPath(stream, "/livestream");
    await connected(stream);
  } finally {
    await viewer.context.close();
  }
});

app.browserTest(
  "a moderator at 1280 px: the tools float over the line on hover, names stay whole, the header names the chat's name, and no call fails",
  async ({ page, context }) => {
    await routePlayer(context);
    await logIn(page);
    const mod = await moderatorOn(page, "Gatekeeper");
    const viewer = await openViewer(context.browser(), app.url, MOBILE);
    try {
      await enterStream(viewer.page, "Longestnameallowed20");
      await say(viewer.page, "Did anyone else hear that scratching behind the cabin wall just now?");
      const line = chatLine(mod.page, "scratching behind the cabin wall");
      await line.waitFor();
      await mod.page.mouse.move(0, 0);
      const tools = line.locator(".stream-chat-mod-actions");
      assert.equal(await tools.evaluate((el) => getComputedStyle(el).opacity), "0", "tools out of sight until wanted");
      const geometry = await line.evaluate((li) => ({
        line: li.getBoundingClientRect().width,
        text: li.querySelector(".stream-chat-line-text").getBoundingClientRect().width,
        nameRows: li.querySelector(".stream-chat-user").getClientRects().length,
      }));
      assert.ok(geometry.text >= geometry.line - 24, `the text has the line's width (${geometry.text} of ${geometry.line})`);
      assert.equal(geometry.nameRows, 1, "a 20-character name is not broken");
      await line.hover();
      await mod.page.waitForFunction((el) => getComputedStyle(el).opacity === "1", await tools.elementHandle());
      for (const name of [
        "Delete message from Longestnameallowed20",
        "Pin message from Longestnameallowed20",
        "Time out Longestnameallowed20",
        "Kick Longestnameallowed20",
        "Ban Longestnameallowed20",
      ]) {
        await line.getByRole("button", { name, exact: true }).waitFor();
      }
      await screenshotWidths(mod.page, "moderator-chat-tools");
      // Keyboard: a tool reached with Tab shows the tools.
      await mod.page.mouse.move(0, 0);
      await line.getByRole("button", { name: "Time out Longestnameallowed20" }).focus();
      await mod.page.keyboard.press("Tab");
      assert.equal(await mod.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Kick Longestnameallowed20");
      await mod.page.waitForFunction((el) => getComputedStyle(el).opacity === "1", await tools.elementHandle());
      // A confirmation takes its own row under the text.
      await line.getByRole("button", { name: "Kick Longestnameallowed20" }).click();
      const confirm = line.getByRole("group", { name: "Kick Longestnameallowed20" });
      const below = await confirm.evaluate(
        (group) => group.getBoundingClientRect().top >= group.closest("li").querySelector(".stream-chat-line-text").getBoundingClientRect().bottom - 1,
      );
      assert.ok(below, "the confirmation sits under the text");
      await confirm.getByRole("button", { name: "No" }).click();

      // The header and the chat name the same person.
      await say(mod.page, "Keep it spooky.");
      const own = chatLine(mod.page, "Keep it spooky.");
      assert.equal(await own.locator(".stream-chat-user").textContent(), "Gatekeeper");
      await mod.page.locator(".stream-header-end").getByText("Gatekeeper", { exact: true }).waitFor();
      assert.equal(await mod.page.locator('.stream-mod-badge[data-staff="moderator"]').textContent(), "MOD");
      assert.deepEqual(mod.problems, [], "no 401 (nor any failed call or console error) on a moderator's stream page");
    } finally {
      await viewer.context.close();
      await mod.context.close();
    }
  },
);

app.browserTest("a pinned line stays inside its box and clear of the rows below it, at 390 and 1280 px", async ({ page, context }) => {
  await routePlayer(context);
  await logIn(page);
  const mod = await moderatorOn(page, "Pinkeeper", MOBILE);
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(viewer.page, "Lurker");
    for (let i = 1; i <= 6; i++) {
      await say(viewer.page, `row ${i} of the chat below the pinned line, long enough to wrap onto a second row on a phone`);
      await chatLine(mod.page, `row ${i} of the chat`).waitFor();
      await viewer.page.waitForTimeout(1100);
    }
    const check = async (what) => {
      for (const width of [MOBILE.width, DESKTOP.width]) {
        await mod.page.setViewportSize({ width, height: width < 1024 ? MOBILE.height : DESKTOP.height });
        await mod.page.waitForTimeout(200);
        const found = await mod.page.evaluate(() => {
          const box = document.querySelector(".stream-chat-pinned").getBoundingClientRect();
          const body = document.querySelector(".stream-chat-panel-body").getBoundingClientRect();
          // (What scrolls inside the pinned text is clipped by it: the text's own box is what counts.)
          const spill = [...document.querySelectorAll(".stream-chat-pinned *")]
            .filter((el) => !el.parentElement.closest(".stream-chat-pinned .stream-chat-line-text"))
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return r.height > 0 && (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5);
            });
          // Every row visible in the log is what is drawn there: nothing of the pinned box lies over it.
          const covered = [...document.querySelectorAll(".stream-chat-list > li")].filter((li) => {
            const r = li.getBoundingClientRect();
            const top = Math.max(r.top, body.top) + 2;
            if (top >= Math.min(r.bottom, body.bottom)) return false;
            const hit = document.elementFromPoint(r.left + r.width / 2, top);
            return !hit || !li.contains(hit);
          });
          // Nor is anything of it painted past the box: no glow (a £50 donation's) over the row below, no bar over its text.
          const line = getComputedStyle(document.querySelector(".stream-chat-pinned .stream-chat-line"));
          const bar = getComputedStyle(document.querySelector(".stream-chat-pinned .stream-chat-line"), "::before");
          const painted = [
            line.boxShadow !== "none" && !line.boxShadow.includes("inset") ? `glow ${line.boxShadow}` : "",
            bar.content !== "none" && bar.content !== "normal" ? "bar" : "",
          ].filter(Boolean);
          return { gap: body.top - box.bottom, spill: spill.map((el) => el.className || el.tagName), covered: covered.map((li) => li.textContent.slice(0, 20)), painted };
        });
        assert.ok(found.gap >= 0, `${what} at ${width}: the log starts below the pinned box (gap ${found.gap})`);
        assert.deepEqual(found.spill, [], `${what} at ${width}: nothing of the pinned line spills out of its box`);
        assert.deepEqual(found.covered, [], `${what} at ${width}: no row below is covered`);
        assert.deepEqual(found.painted, [], `${what} at ${width}: nothing painted past the pinned box`);
      }
    };
    await donateByApi(viewer.page, 5000);
    const donation = chatLine(mod.page, "donated");
    await donation.click();
    await donation.getByRole("button", { name: /^Pin message from/ }).click();
    await mod.page.locator(".stream-chat-pinned").getByText("donated").waitFor();
    await check("a pinned £50 donation");
    await screenshotWidths(mod.page, "pinned-donation");

    await say(mod.page, "House rules: keep it spooky, not cruel, no spoilers about the thing in the woods, and be kind to first-timers tonight.");
    const rules = chatLine(mod.page, "House rules");
    await rules.click();
    await rules.getByRole("button", { name: /^Pin message from/ }).click();
    await mod.page.locator(".stream-chat-pinned").getByText("House rules").waitFor();
    await check("a pinned staff line");
    await screenshotWidths(mod.page, "pinned-staff-line");
    await screenshotWidths(viewer.page, "pinned-staff-line-viewer");
  } finally {
    await viewer.context.close();
    await mod.context.close();
  }
});

app.browserTest("Reset device in the panel sends the old phone back to /access at once, its chat closed", async ({ page, context }) => {
  await routePlayer(context);
  await logIn(page);
  const { code } = await generateCode(page);
  const phone = await openViewer(context.browser(), app.url, MOBILE);
  try {
    await enterStream(phone.page, "Oldphone", code);
    await page.goto("/admin/access-codes");
    const row = page.getByRole("row").filter({ hasText: code });
    await row.getByRole("cell", { name: "Yes", exact: true }).waitFor();
    await row.getByRole("button", { name: `Reset device ${code}` }).click();
    await page.getByRole("dialog", { name: "Reset device binding?" }).getByRole("button", { name: "Reset device" }).click();
    await toastWith(page, "Device Reset").waitFor();

    const started = Date.now();
    await waitForPath(phone.page, "/access", 5000);
    assert.ok(Date.now() - started < 5000);
    await toastWith(phone.page, "This access code was reset for use on another device").waitFor();
    // The code is forgotten on the old phone, so /access does not quietly bind it again.
    assert.equal(await phone.page.getByRole("textbox", { name: "Access code" }).inputValue(), "");
    await phone.page.waitForTimeout(500);
    assert.equal(new URL(phone.page.url()).pathname, "/access");
    await screenshotWidths(phone.page, "device-reset-old-phone");
    // Its session is over on the server: the stream and the chat refuse the old cookie.
    const status = await phone.page.evaluate(async () => (await fetch("/api/stream/playback")).status);
    assert.equal(status, 401);
  } finally {
    await phone.context.close();
  }
});
