import assert from "node:assert/strict";
import { DESKTOP, MOBILE } from "./support/browser.mjs";
import { banThroughChat, enterAsViewer, failRoute, generateCode, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

const app = useApp();
const VIEWERS = [
  { username: "Mara", email: "mara@crypt.example" },
  { username: "Ezekiel", email: "zeke@hollow.example" },
  { username: "MARAUDER", email: "raider@crypt.example" },
  { username: "Quill" },
];
let seeded = false;

/** The viewers above, each entered with a code of their own (once per server). */
async function seedViewers(page) {
  if (seeded) return;
  for (const viewer of VIEWERS) {
    const { code } = await generateCode(page);
    await enterAsViewer(page, code, viewer.username, viewer.email);
  }
  seeded = true;
}

const rowOf = (page, username) => page.locator("tbody tr").filter({ has: page.getByRole("cell", { name: username, exact: true }) });

app.browserTest("users: the list, a case-insensitive search on username or e-mail, and the CSV export", async ({ page }) => {
  await logIn(page);
  await page.goto("/admin/users");
  await page.getByText("No users yet").waitFor();
  await seedViewers(page);
  await page.reload();
  for (const { username } of VIEWERS) await rowOf(page, username).waitFor();
  await rowOf(page, "Mara").getByText("mara@crypt.example").waitFor();
  await rowOf(page, "Mara").getByText("Active").waitFor();
  assert.match(await rowOf(page, "Mara").locator("td.mono").innerText(), /^SKP-/);
  await page.getByText("4 users").waitFor();

  const search = page.getByRole("searchbox", { name: "Search users" });
  await search.fill("mara");
  await page.getByText("2 of 4 users").waitFor();
  await rowOf(page, "Mara").waitFor();
  await rowOf(page, "MARAUDER").waitFor();
  assert.equal(await rowOf(page, "Ezekiel").count(), 0);

  await search.fill("HOLLOW.EXAMPLE");
  await page.getByText("1 of 4 users").waitFor();
  await rowOf(page, "Ezekiel").waitFor();

  await search.fill("CRYPT");
  await page.getByText("2 of 4 users").waitFor();
  assert.equal(await rowOf(page, "Quill").count(), 0);

  await search.fill("nobody-here");
  await page.getByText("No users match your search").waitFor();
  await search.fill("");

  const csvLink = page.getByRole("link", { name: "Export CSV" });
  assert.equal(await csvLink.getAttribute("href"), "/api/admin/users.csv");
  const [download] = await Promise.all([page.waitForEvent("download"), csvLink.click()]);
  assert.match(download.suggestedFilename(), /^users-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await page.request.get("/api/admin/users.csv")).text();
  assert.match(csv, /^username,email,access_code,banned,moderator,created_at/);
  assert.match(csv, /Ezekiel,zeke@hollow\.example,SKP-/);

  await screenshotScreen(page, "admin-users");
  await assertAccessible(page, "/admin/users");
});

/** How far the Users table reaches past its scrolling box (0 when it fits), and whether the row's last buttons are inside it. */
async function tableFit(page, username) {
  const wrap = page.locator(".table-wrap");
  const { overflow, wrapRight } = await wrap.evaluate((el) => ({ overflow: el.scrollWidth - el.clientWidth, wrapRight: el.getBoundingClientRect().right }));
  const last = await rowOf(page, username).locator("td").last().boundingBox();
  return { overflow, lastCellInside: last.x + last.width <= wrapRight + 0.5 };
}

app.browserTest("users at 1280 px: the table fits its box with long addresses, and one who never chatted is banned from here, out of the stream", async ({ page }) => {
  await logIn(page);
  await seedViewers(page);
  // A buyer's address kept on the pass (given at purchase), entered without one: Users shows the pass's.
  const { code } = await generateCode(page, { email: "a.very.long.address.for.a.buyer@some-haunted-mansion.example" });
  await enterAsViewer(page, code, "NeverChatted");
  await page.goto("/admin/users");
  await rowOf(page, "NeverChatted").getByText("a.very.long.address.for.a.buyer@some-haunted-mansion.example").waitFor();
  assert.deepEqual(page.viewportSize(), DESKTOP);
  assert.deepEqual(await tableFit(page, "NeverChatted"), { overflow: 0, lastCellInside: true }, "no column cut off at 1280 px");
  await rowOf(page, "NeverChatted").getByRole("button", { name: "Make NeverChatted a moderator" }).waitFor();

  await rowOf(page, "NeverChatted").getByRole("button", { name: "Ban NeverChatted" }).click();
  const dialog = page.getByRole("dialog", { name: "Ban NeverChatted?" });
  await dialog.getByText("They are locked out of the stream and the chat at once").waitFor();
  await dialog.getByLabel("Reason (optional)").fill("Sharing the stream link");
  await screenshotScreen(page, "admin-users-ban-confirm");
  await dialog.getByRole("button", { name: "Ban", exact: true }).click();
  await toastWith(page, "User Banned").getByText("NeverChatted is locked out of the stream and the chat.").waitFor();
  await rowOf(page, "NeverChatted").getByText("Banned", { exact: true }).waitFor();
  assert.equal(await rowOf(page, "NeverChatted").getByRole("button", { name: "Ban NeverChatted" }).count(), 0, "no second ban");
  assert.deepEqual(await tableFit(page, "NeverChatted"), { overflow: 0, lastCellInside: true });
  await screenshotScreen(page, "admin-users-banned");
  await assertAccessible(page, "/admin/users with a ban made from it");

  await page.goto("/admin/banned-users");
  await page.getByRole("heading", { name: "Banned from the stream and chat" }).waitFor();
  await page.getByText("People locked out of the stream and the chat, and unbanning them.").waitFor();
  const list = page.getByRole("radiogroup", { name: "Banned from the stream and chat" });
  await list.getByText("NeverChatted").waitFor();
  await list.getByText("“Sharing the stream link”").waitFor();
  await page.getByRole("link", { name: "Ban from Users" }).click();
  await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();

  // The code is refused under a new name: the ban locks the pass out, not only the chat.
  const context = await page.context().browser().newContext({ baseURL: app.url });
  try {
    const response = await context.request.post("/api/validate-access", { data: { accessCode: code, username: "Disguised", deviceFingerprint: makeFingerprint() } });
    assert.equal((await response.json()).valid, false);
  } finally {
    await context.close();
  }
  const { bannedUsers } = await (await page.request.get("/api/admin/banned-users")).json();
  assert.equal((await page.request.post("/api/admin/unban-user", { data: { username: "NeverChatted" } })).status(), 200);
  assert.ok(bannedUsers.some((b) => b.username === "NeverChatted" && b.bannedBy === "gravekeeper"));
});

app.browserTest("users: a failed load shows 'Failed to fetch users.'", async ({ page }) => {
  await logIn(page);
  await failRoute(page, "/api/admin/users");
  await page.goto("/admin/users");
  await toastWith(page, "Failed to fetch users.").waitFor();
  await page.getByText("The users could not be loaded").waitFor();
});

app.browserTest("banned users: pick one, confirm, and they are unbanned and gone from the list", async ({ page }) => {
  await logIn(page);
  await page.goto("/admin/banned-users");
  await page.getByText("Nobody is banned").waitFor();
  await screenshotScreen(page, "admin-banned-users-empty");

  await seedViewers(page);
  // Enough bans to overflow the 400px list.
  const extra = ["Ghoul", "Wraith", "Banshee", "Revenant", "Lich", "Poltergeist"];
  for (const username of extra) {
    const { code } = await generateCode(page);
    await enterAsViewer(page, code, username);
  }
  for (const username of ["Ezekiel", "Quill", ...extra]) await banThroughChat(page, username);

  await page.reload();
  const list = page.getByRole("radiogroup", { name: "Banned from the stream and chat" });
  await list.getByText("Ezekiel").waitFor();
  await page.getByText("8 banned").waitFor();
  await list.getByText(`Banned by ${"gravekeeper"}`).first().waitFor();
  const scroller = page.getByTestId("banned-scroll");
  const metrics = await scroller.evaluate((el) => ({
    max: getComputedStyle(el).maxHeight,
    overflow: getComputedStyle(el).overflowY,
    client: el.clientHeight,
    scroll: el.scrollHeight,
  }));
  assert.equal(metrics.max, "400px");
  assert.equal(metrics.overflow, "auto");
  assert.ok(metrics.client <= 400 && metrics.scroll > metrics.client, `the list scrolls: ${JSON.stringify(metrics)}`);

  const unban = page.getByRole("button", { name: "Unban User" });
  assert.equal(await unban.isDisabled(), true, "nothing picked yet");
  await list.getByText("Ezekiel").click();
  assert.equal(await list.getByRole("radio", { name: /Ezekiel/ }).isChecked(), true);
  await page.getByText("Selected: Ezekiel").waitFor();
  await screenshotScreen(page, "admin-banned-users");

  await unban.click();
  let dialog = page.getByRole("dialog", { name: "Unban Ezekiel?" });
  await dialog.waitFor();
  await screenshotScreen(page, "admin-banned-users-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await list.getByText("Ezekiel").waitFor();

  await unban.click();
  dialog = page.getByRole("dialog", { name: "Unban Ezekiel?" });
  await dialog.getByRole("button", { name: "Unban", exact: true }).click();
  await toastWith(page, "User Unbanned").getByText("Ezekiel can watch and chat again.").waitFor();
  await list.getByText("Ezekiel").waitFor({ state: "detached" });
  await page.getByText("7 banned").waitFor();
  const { bannedUsers } = await (await page.request.get("/api/admin/banned-users")).json();
  assert.equal(
    bannedUsers.some((b) => b.username === "Ezekiel"),
    false,
  );
  assert.equal(bannedUsers.length, 7);

  await page.goto("/admin/users");
  await rowOf(page, "Ezekiel").getByText("Active").waitFor();
  await rowOf(page, "Quill").getByText("Banned").waitFor();
  await page.goto("/admin/banned-users");
  await page.getByText("7 banned").waitFor();
  await assertAccessible(page, "/admin/banned-users");
});

app.browserTest("banned users: failures to load and to unban show their toasts", async ({ page }) => {
  await logIn(page);
  const restore = await failRoute(page, "/api/admin/banned-users");
  await page.goto("/admin/banned-users");
  await toastWith(page, "Failed to load banned users list.").waitFor();
  await page.getByText("The banned users could not be loaded").waitFor();
  await restore();
  await page.getByRole("button", { name: "Try again" }).click();
  const list = page.getByRole("radiogroup", { name: "Banned from the stream and chat" });
  await list.getByText("Quill").click();

  await failRoute(page, "/api/admin/unban-user");
  await page.getByRole("button", { name: "Unban User" }).click();
  await page.getByRole("dialog", { name: "Unban Quill?" }).getByRole("button", { name: "Unban", exact: true }).click();
  await toastWith(page, "Failed to unban user.").waitFor();
  await list.getByText("Quill").waitFor();
});

app.browserTest(
  "on a phone users are cards and the banned list still scrolls within 400px",
  async ({ page }) => {
    await logIn(page);
    await seedViewers(page);
    await page.goto("/admin/users");
    await page.locator("li.record-card").filter({ hasText: "Mara" }).first().waitFor();
    assert.equal(await page.locator("table").count(), 0);
    let overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    await screenshotScreen(page, "admin-users-cards");

    await page.goto("/admin/banned-users");
    await page.getByRole("radiogroup", { name: "Banned from the stream and chat" }).getByText("Quill").click();
    await page.getByText("Selected: Quill").waitFor();
    overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
  },
  { viewport: MOBILE },
);
