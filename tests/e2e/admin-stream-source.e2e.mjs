import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DESKTOP, MOBILE, screenshotDir } from "./support/browser.mjs";
import { dismissToasts, logIn } from "./support/admin-panel.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";

// The HLS relay's example origin is on this machine, beside the server.
const app = useApp({ args: ["--allow-private-origins"] });

const PEM = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

/** The card alone at 390 and 1280 px: <name>-390.png and <name>-1280.png. */
async function screenshotCard(page, card, name) {
  mkdirSync(screenshotDir, { recursive: true });
  // The phone top bar sticks over whatever is scrolled under it; toasts of earlier saves would cover the card.
  await page.addStyleTag({ content: ".admin-topbar { position: static !important; }" });
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(250);
    await card.screenshot({ path: join(screenshotDir, `${name}-${viewport.width}.png`) });
  }
}

const card = (page) => page.getByRole("form", { name: "Stream source" });
const source = async (page) => (await page.request.get("/api/admin/stream-source")).json();

/** @type {[string, Record<string, string>][]} */
const KINDS = [
  ["Embed link", { "Embed URL": "https://www.youtube.com/embed/dQw4w9WgXcQ" }],
  ["Mux", { "Playback ID": "a1B2c3D4e5F6", "Signing key ID": "sK3yId00", "Signing key": PEM }],
  [
    "Cloudflare Stream",
    { "Customer code": "f33zs165nr7gyfy4", "Video or live input UID": "0123456789abcdef0123456789abcdef", "Key ID": "fedcba9876543210fedcba9876543210", "Private key": PEM },
  ],
  ["Bunny Stream", { "Library ID": "123456", "Video ID": "7a3c1a8e-55f1-4d1c-9b8e-3e0f6d3b6c21", "Token authentication key": "4f0c1c2e-aaaa-bbbb-cccc-0123456789ab" }],
  ["HLS relay", { "Origin URL": "http://127.0.0.1:8080/hls/stream.m3u8" }],
];

app.browserTest("the Stream source card offers each kind with its fields, says which protect the video, and saves each", async ({ page }) => {
  await logIn(page, "/admin/settings");
  const form = card(page);
  await form.waitFor();
  await form.getByText("Anyone with this link can watch").waitFor();
  assert.equal(await form.getByRole("radio", { name: /Embed link/ }).isChecked(), true);
  for (const [label, fields] of KINDS) {
    await form.getByText(label, { exact: true }).click();
    assert.equal(await form.getByRole("radio", { name: new RegExp(label) }).isChecked(), true);
    await form.getByText(label === "Embed link" ? "Anyone with this link can watch" : "Only paying viewers can play it").waitFor();
    for (const [field, value] of Object.entries(fields)) await form.getByLabel(field, { exact: true }).fill(value);
    // The watermark follows the kind until it is touched: on for the protected ones.
    assert.equal(await form.getByRole("switch", { name: "Viewer watermark" }).getAttribute("aria-checked"), String(label !== "Embed link"));
    await screenshotCard(page, form, `admin-stream-source-${label.toLowerCase().replace(/\s+/g, "-")}`);
    await form.getByRole("button", { name: "Save Stream Source" }).click();
    await toastWith(page, "Stream Source Saved").waitFor();
    const saved = await source(page);
    assert.equal(saved.kind, { "Embed link": "embed", Mux: "mux", "Cloudflare Stream": "cloudflare", "Bunny Stream": "bunny", "HLS relay": "hls" }[label]);
    assert.ok(!JSON.stringify(saved).includes("PRIVATE KEY") && !JSON.stringify(saved).includes("4f0c1c2e"), "secrets never come back");
  }
});

app.browserTest("bad input gets a message beside its field, from the form or the server, and nothing is saved", async ({ page }) => {
  await logIn(page, "/admin/settings");
  const form = card(page);
  await form.getByText("Mux", { exact: true }).click();
  const before = await source(page);
  await form.getByLabel("Playback ID", { exact: true }).fill("not/an/id");
  await form.getByLabel("Signing key", { exact: true }).fill("hunter2");
  await form.getByRole("button", { name: "Save Stream Source" }).click();
  await form.getByText("Playback ID may only contain letters and digits").waitFor();
  await form.getByText("Signing key is not a PEM, a base64 PEM or a JWK private key").waitFor();
  await screenshotCard(page, form, "admin-stream-source-errors");

  // Shaped like a key, but no RSA key inside: only the server can tell, and it names the field.
  await form.getByLabel("Playback ID", { exact: true }).fill("abc123");
  await form.getByLabel("Signing key ID", { exact: true }).fill("key42");
  await form.getByLabel("Signing key", { exact: true }).fill("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----");
  await form.getByRole("button", { name: "Save Stream Source" }).click();
  await form.getByText("Signing key is not a valid RSA private key").waitFor();
  assert.equal(await form.getByText("Playback ID may only contain").count(), 0);
  assert.deepEqual(await source(page), before);

  await form.getByText("HLS relay", { exact: true }).click();
  await form.getByLabel("Origin URL", { exact: true }).fill("ftp://127.0.0.1/hls/stream.m3u8");
  await form.getByRole("button", { name: "Save Stream Source" }).click();
  await form.getByText("Origin URL must be an http:// or https:// address without a user name or password").waitFor();
  assert.deepEqual(await source(page), before);
});

app.browserTest("a saved key shows as saved, stays when its field is left empty, and the choice is there after a reload", async ({ page }) => {
  await logIn(page, "/admin/settings");
  const form = card(page);
  await form.getByText("Mux", { exact: true }).click();
  await form.getByLabel("Playback ID", { exact: true }).fill("keepMe1");
  await form.getByLabel("Signing key ID", { exact: true }).fill("key42");
  await form.getByLabel("Signing key", { exact: true }).fill(PEM);
  await form.getByRole("switch", { name: "Viewer watermark" }).click();
  await form.getByRole("button", { name: "Save Stream Source" }).click();
  await toastWith(page, "Stream Source Saved").waitFor();
  await page.reload();
  await card(page).waitFor();
  assert.equal(await card(page).getByRole("radio", { name: /Mux/ }).isChecked(), true);
  assert.equal(await card(page).getByLabel("Playback ID", { exact: true }).inputValue(), "keepMe1");
  assert.equal(await card(page).getByLabel("Signing key", { exact: true }).inputValue(), "");
  await card(page).getByText("A key is saved: leave this empty to keep it.").waitFor();
  assert.equal(await card(page).getByRole("switch", { name: "Viewer watermark" }).getAttribute("aria-checked"), "false");
  await card(page).getByLabel("Playback ID", { exact: true }).fill("keepMe2");
  await card(page).getByRole("button", { name: "Save Stream Source" }).click();
  await toastWith(page, "Stream Source Saved").waitFor();
  assert.deepEqual(await source(page), { kind: "mux", playbackId: "keepMe2", signingKeyId: "key42", signingKeySet: true, watermark: false });
});
