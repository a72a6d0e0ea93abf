/**
 * An event with more buyers than one page holds: the Payments, Users, Access Codes and Banned Users screens
 * show 50 rows at a time with Previous and Next, and a search or filter goes back to the first page.
 */
import assert from "node:assert/strict";
import { request } from "playwright-core";
import { banThroughChat, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { MOBILE } from "./support/browser.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

// Each buyer comes from an address of their own (through a proxy the server trusts), as they would.
const app = useApp({ args: ["--trust-proxy", "127.0.0.1"] });
const BUYERS = 55;

/** Buyer `i` pays for a pass with the demo card and enters the chat as Ghoul<i>. */
async function buy(i) {
  const api = await request.newContext({ baseURL: app.url, extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${i + 1}` } });
  try {
    const post = async (path, data) => {
      const response = await api.post(path, { data });
      const body = await response.json();
      assert.ok(response.ok(), `${path}: ${response.status()} ${JSON.stringify(body)}`);
      return body;
    };
    const email = `ghoul${i}@crypt.example`;
    const intent = await post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email });
    await post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242424242424242" });
    const { accessCode } = await post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: makeFingerprint() });
    const entered = await post("/api/validate-access", { accessCode, username: `Ghoul${i}`, email, deviceFingerprint: makeFingerprint() });
    assert.equal(entered.valid, true);
  } finally {
    await api.dispose();
  }
}

let seeded;
/** The 55 buyers, once for the file, one after the other (so Ghoul54 is the newest). */
function seed() {
  seeded ??= (async () => {
    for (let i = 0; i < BUYERS; i++) await buy(i);
  })();
  return seeded;
}

const pager = (page, noun) => page.getByRole("navigation", { name: `Pages of ${noun}` });

/** The pager says `range` of 55, and Previous/Next are enabled as given. */
async function expectPage(page, noun, range, { previous, next }) {
  const nav = pager(page, noun);
  await nav.getByText(`${range} of 55 ${noun}`).waitFor();
  assert.equal(await nav.getByRole("button", { name: "Previous" }).isEnabled(), previous, "Previous");
  assert.equal(await nav.getByRole("button", { name: "Next" }).isEnabled(), next, "Next");
}

/** After a page turn from the bottom of the list, the top of the list is in view (below the phone's top bar). */
async function expectListTopInView(page) {
  const top = await page.locator("section.list-panel").evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 200, `the list's top is at ${top}px`);
}

app.browserTest("payments: 50 at a time, newest first; Next and Previous; a search or filter starts again at the first page", async ({ page }) => {
  await seed();
  await logIn(page, "/admin/payments");
  await page.getByText("55 payments", { exact: true }).waitFor();
  const rows = page.locator("tbody tr");
  assert.equal(await rows.count(), 50);
  await rows.filter({ hasText: "Ghoul54" }).waitFor();
  assert.equal(await rows.filter({ hasText: "ghoul0@" }).count(), 0, "the oldest is on the second page");
  await expectPage(page, "payments", "1–50", { previous: false, next: true });
  await pager(page, "payments").getByText("Page 1 of 2").waitFor();
  // The totals and the chart count every payment, not the page.
  await page.getByRole("region", { name: "Net revenue chart" }).waitFor();

  await pager(page, "payments").getByRole("button", { name: "Next" }).click();
  await expectPage(page, "payments", "51–55", { previous: true, next: false });
  await expectListTopInView(page);
  assert.equal(await rows.count(), 5);
  await rows.filter({ hasText: "ghoul0@" }).waitFor();
  await assertAccessible(page, "/admin/payments, second page");
  await screenshotScreen(page, "admin-payments-pages");

  // A search from the second page shows its matches from the first.
  const search = page.getByRole("searchbox", { name: "Search payments" });
  await search.fill("ghoul1");
  await page.getByText("11 of 55 payments").waitFor();
  assert.equal(await rows.count(), 11);
  assert.equal(await pager(page, "payments").count(), 0, "no pager under a list that fits one page");
  await search.fill("");
  await expectPage(page, "payments", "1–50", { previous: false, next: true });
  await pager(page, "payments").getByRole("button", { name: "Next" }).click();
  await expectPage(page, "payments", "51–55", { previous: true, next: false });
  await page.getByRole("combobox", { name: "Kind" }).selectOption("access");
  await expectPage(page, "payments", "1–50", { previous: false, next: true });
});

app.browserTest(
  "users and access codes on a phone: 50 cards at a time, the page turned from the bottom of the list",
  async ({ page }) => {
    await seed();
    await logIn(page, "/admin/users");
    await page.getByText("55 users", { exact: true }).waitFor();
    const cards = page.locator("li.record-card");
    assert.equal(await cards.count(), 50);
    await cards.filter({ hasText: "Ghoul54" }).waitFor();
    await expectPage(page, "users", "1–50", { previous: false, next: true });
    const next = pager(page, "users").getByRole("button", { name: "Next" });
    await next.scrollIntoViewIfNeeded();
    await next.click();
    await expectPage(page, "users", "51–55", { previous: true, next: false });
    await expectListTopInView(page);
    assert.equal(await cards.count(), 5);
    await cards.filter({ hasText: "Ghoul0" }).first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling");
    await assertAccessible(page, "/admin/users, second page");
    await screenshotScreen(page, "admin-users-pages");
    await pager(page, "users").getByRole("button", { name: "Previous" }).click();
    await expectPage(page, "users", "1–50", { previous: false, next: true });

    await page.goto("/admin/access-codes");
    await page.getByText("55 codes", { exact: true }).waitFor();
    assert.equal(await cards.count(), 50);
    await expectPage(page, "codes", "1–50", { previous: false, next: true });
    await pager(page, "codes").getByRole("button", { name: "Next" }).click();
    await expectPage(page, "codes", "51–55", { previous: true, next: false });
    assert.equal(await cards.count(), 5);
    await screenshotScreen(page, "admin-access-codes-pages");
    // Searching for a code that was on the first page finds it from here.
    const newest = (await (await page.request.get("/api/admin/access-codes")).json())[0].code;
    await page.getByRole("searchbox", { name: "Search codes" }).fill(newest.slice(-9));
    await page.locator(`li.record-card[data-code="${newest}"]`).waitFor();
    assert.equal(await pager(page, "codes").count(), 0);
  },
  { viewport: MOBILE },
);

app.browserTest(
  "banned users after a raid, on a phone: 50 at a time, searched by name, banner or reason, and one picked and unbanned",
  async ({ page }) => {
    await seed();
    await logIn(page, "/admin/banned-users");
    for (let i = 0; i < BUYERS; i++) await banThroughChat(page, `Ghoul${i}`, i % 5 === 0 ? "raid: spam links" : "raid: slurs");
    await page.reload();
    const items = page.locator("label.banned-item");
    await page.getByText("55 banned", { exact: true }).waitFor();
    assert.equal(await items.count(), 50);
    await expectPage(page, "banned users", "1–50", { previous: false, next: true });
    const next = pager(page, "banned users").getByRole("button", { name: "Next" });
    await next.scrollIntoViewIfNeeded();
    await next.click();
    await expectPage(page, "banned users", "51–55", { previous: true, next: false });
    await expectListTopInView(page);
    assert.equal(await items.count(), 5);
    assert.equal(await page.getByTestId("banned-scroll").evaluate((el) => el.scrollTop), 0, "the new page starts at the top of the scrolling list");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling");
    await assertAccessible(page, "/admin/banned-users, second page");
    await screenshotScreen(page, "admin-banned-users-pages");

    // The search covers every ban, whichever page is shown: by reason, then by name.
    const search = page.getByRole("searchbox", { name: "Search banned users" });
    await search.fill("SPAM LINKS");
    await page.getByText("11 of 55 banned").waitFor();
    assert.equal(await items.count(), 11);
    assert.equal(await pager(page, "banned users").count(), 0, "no pager under a list that fits one page");
    await search.fill("ghoul5");
    await page.getByText("6 of 55 banned").waitFor();
    await page.getByRole("radio", { name: /^Ghoul53\b/ }).check({ force: true });
    await page.getByText("Selected: Ghoul53").waitFor();
    await page.getByRole("button", { name: "Unban User" }).click();
    await page.getByRole("dialog", { name: "Unban Ghoul53?" }).getByRole("button", { name: "Unban" }).click();
    await toastWith(page, "User Unbanned").waitFor();
    await page.getByText("5 of 54 banned").waitFor();
    await search.fill("nobody-like-this");
    await page.getByText("No banned users match your search").waitFor();
    await screenshotScreen(page, "admin-banned-users-no-match");
  },
  { viewport: MOBILE },
);
