import assert from "node:assert/strict";
import { screenshotWidths } from "./support/browser.mjs";
import { useApp, waitForPath } from "./support/e2e.mjs";

const app = useApp();

const mainNav = (page) => page.getByRole("navigation", { name: "Main" });

app.browserTest("the home page shows the event title and the default thumbnail banner", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("heading", { level: 1, name: "DREADCAST: The Night It Streams" }).waitFor();
  const banner = page.getByRole("img", { name: /event banner/ });
  await banner.waitFor();
  assert.equal(await banner.getAttribute("src"), "/assets/default-thumbnail.jpg");
  // Drawn 1088 px wide at 1280: the full-size file; on a phone, the 720 px one.
  const shown = async (on) =>
    (
      await on.waitForFunction(() => {
        const img = document.querySelector(".home-banner-img");
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0 ? new URL(img.currentSrc).pathname : null;
      })
    ).jsonValue();
  assert.equal(await shown(page), "/assets/default-thumbnail.jpg");
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto("/");
  assert.equal(await shown(phone), "/assets/default-thumbnail-720.jpg");
  await phone.close();
  await screenshotWidths(page, "home");
});

app.browserTest("the shell nav shows Home always and Livestream only once an access code is stored", async ({ page }) => {
  await page.goto("/");
  await mainNav(page).getByRole("link", { name: "Home" }).waitFor();
  assert.equal(await mainNav(page).getByRole("link", { name: "Livestream" }).count(), 0);

  await page.evaluate(async (username) => {
    // A real test code and a name: the stream screen verifies them and sends anything else back to /access.
    const { accessCode } = await (await fetch("/api/test/generate-access-code")).json();
    localStorage.setItem("accessCode", accessCode);
    localStorage.setItem("username", username);
  }, "ShellViewer");
  await page.reload();
  await mainNav(page).getByRole("link", { name: "Livestream" }).waitFor();
  await screenshotWidths(page, "home-with-access-code");

  await mainNav(page).getByRole("link", { name: "Livestream" }).click();
  await waitForPath(page, "/livestream");
  await page.getByRole("heading", { name: "LIVE CHAT" }).waitFor();
  assert.equal(await page.getByRole("navigation", { name: "Main" }).count(), 0, "the livestream is a bare page");
});

app.browserTest("the footer has placeholder social links and the legal links without targets", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  for (const label of ["Privacy Policy", "Terms of Service", "Contact"]) {
    const link = footer.getByText(label, { exact: true });
    await link.waitFor();
    assert.equal(await link.getAttribute("href"), null, `${label} has no target`);
  }
  const socials = footer.getByRole("list", { name: "Social media" }).locator("a");
  assert.ok((await socials.count()) >= 3);
  for (const social of await socials.all()) assert.equal(await social.getAttribute("href"), null);
});

app.browserTest("the livestream routes need a stored access code, otherwise they go to /access", async ({ page }) => {
  for (const path of ["/livestream", "/livestream-new", "/livestream-fixed"]) {
    await page.goto(path);
    await waitForPath(page, "/access");
    await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  }
  await screenshotWidths(page, "access");

  await page.evaluate(async (username) => {
    // A real test code and a name: the stream screen verifies them and sends anything else back to /access.
    const { accessCode } = await (await fetch("/api/test/generate-access-code")).json();
    localStorage.setItem("accessCode", accessCode);
    localStorage.setItem("username", username);
  }, "RouteViewer");
  for (const path of ["/livestream", "/livestream-new", "/livestream-fixed"]) {
    await page.goto(path);
    await page.getByText("Chat messages will appear here").waitFor();
    assert.equal(new URL(page.url()).pathname, path);
  }
  await screenshotWidths(page, "livestream");
});

app.browserTest("the other public pages render inside the shell", async ({ page }) => {
  await page.goto("/checkout-success");
  await page.getByText("No payment information found").waitFor();
  await mainNav(page).waitFor();
  await screenshotWidths(page, "checkout-success");

  await page.goto("/test-access");
  await page.getByRole("heading", { name: "Test Access" }).waitFor();
  await mainNav(page).waitFor();
  await screenshotWidths(page, "test-access");
});

app.browserTest("the design and layout-test pages are bare pages", async ({ page }) => {
  await page.goto("/design");
  await page.getByRole("heading", { level: 1, name: "Design" }).waitFor();
  assert.equal(await mainNav(page).count(), 0);
  await screenshotWidths(page, "design");

  await page.goto("/layout-test");
  await page.getByText("Stream Offline").waitFor();
  await page.getByText("The event will begin soon...").waitFor();
  await page.getByText("FEAR METER").waitFor();
  await page.getByText("£25.00").waitFor();
  await page.getByText("£50.00", { exact: false }).waitFor();
  await page.getByText("Chat will be active during the stream", { exact: true }).waitFor();
  assert.equal(await page.getByRole("progressbar").getAttribute("aria-valuenow"), "25");
  assert.equal(await mainNav(page).count(), 0);
  await screenshotWidths(page, "layout-test");
});

app.browserTest("viewer pages never download the admin panel's code", async ({ page }) => {
  const scripts = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.waitForLoadState("networkidle");
  assert.ok(scripts.length > 0);
  assert.deepEqual(
    scripts.filter((path) => path.includes("admin")),
    [],
  );

  await page.goto("/admin/login");
  await page.getByRole("heading", { name: "Admin Login" }).waitFor();
  assert.ok(
    scripts.some((path) => path.includes("admin")),
    "the admin code loads on /admin",
  );
});
