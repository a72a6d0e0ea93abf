import assert from "node:assert/strict";
import { useApp } from "./support/e2e.mjs";
import { chatLine, enterStream, openViewer, say } from "./support/live.mjs";

const app = useApp();

const MESSAGE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold?</b>`;
const USERNAME = "<i>Hex</i>";

app.browserTest("HTML in a username or a chat message shows as text for everyone, and never runs", async ({ page, context }) => {
  await enterStream(page, USERNAME);
  const other = await openViewer(context.browser(), app.url);
  try {
    await enterStream(other.page, "Witness");
    await say(page, MESSAGE);

    for (const viewer of [page, other.page]) {
      const line = chatLine(viewer, "window.__pwned = 1");
      await line.waitFor();
      const text = await line.innerText();
      assert.ok(text.includes(MESSAGE), `the message is shown literally: ${text}`);
      assert.ok(text.includes(USERNAME), `the username is shown literally: ${text}`);
      assert.equal(await line.locator("script, img, b, i").count(), 0, "no element was made from the markup");
      assert.equal(await viewer.evaluate(() => /** @type {any} */ (window).__pwned), undefined, "no script ran");
    }
  } finally {
    await other.context.close();
  }
});
