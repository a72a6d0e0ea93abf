import { Elysia } from "elysia";
import { escapeHtml } from "../../lib/html.ts";
import type { ReminderService, UnsubscribeOutcome } from "./service.ts";

/** The page's own policy: its inline style, and a form that posts back here; nothing else loads. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(status: number, heading: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(heading)} · DREADCAST</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0a0506;color:#eadcdc;font-family:Georgia,'Times New Roman',serif}main{max-width:26rem;margin:1rem;padding:2rem;border:1px solid #7f1d1d;border-radius:12px;background:#140b0d;text-align:center}.brand{color:#e01e2b;letter-spacing:.3em;font-weight:bold}h1{font-size:1.4rem;margin:1rem 0 .5rem}p{line-height:1.5;color:#bfaeae}button{margin-top:1rem;min-height:44px;padding:.65rem 1.4rem;border:1px solid #ff3b47;border-radius:6px;background:linear-gradient(180deg,#e01e2b,#b3121b);color:#fff;font:bold .95rem system-ui,sans-serif;letter-spacing:.08em;cursor:pointer}a{color:#ff4d57}</style></head>
<body><main><div class="brand">DREADCAST</div><h1>${escapeHtml(heading)}</h1>${body}</main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_POLICY, "cache-control": "no-store" } });
}

const NOT_VALID = () => page(404, "This link is not valid", "<p>It names no pass, so nothing was changed. Use the link in your latest reminder.</p>");

const ANSWERS: Record<UnsubscribeOutcome, () => Response> = {
  unsubscribed: () => page(200, "Reminders are off", "<p>You will get no more reminders for this pass. Your access code still works.</p>"),
  already: () => page(200, "Reminders were already off", "<p>Nothing was changed: this pass gets no reminders. Your access code still works.</p>"),
  unknown: NOT_VALID,
};

/**
 * /unsubscribe?token=…: GET asks to confirm (a link scanner opening it changes nothing); POST stops the
 * pass's reminders, from the page's button or a mail program's one-click unsubscribe (RFC 8058).
 */
export function reminderRoutes(reminders: ReminderService) {
  const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";
  return new Elysia({ name: "reminder-routes" })
    .get("/unsubscribe", async ({ request }) => {
      const token = tokenOf(request);
      if (!(await reminders.knows(token))) return NOT_VALID();
      return page(
        200,
        "Stop the reminders?",
        `<p>No more e-mails before the event for this pass. Your access code keeps working.</p><form method="post" action="/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}"><button type="submit">STOP REMINDERS</button></form>`,
      );
    })
    .post("/unsubscribe", async ({ request }) => ANSWERS[await reminders.unsubscribe(tokenOf(request))](), { parse: "none" });
}
