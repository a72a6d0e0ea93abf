import { Elysia } from "elysia";
import { escapeHtml } from "../../lib/html.ts";
import type { ReminderService, UnsubscribeOutcome } from "./service.ts";

/** The page's own policy: its inline style, and a form that posts back here; nothing else loads. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Where the page leads back: the event's site, and the organiser to write to when they gave an address. */
type PageDetails = Awaited<ReturnType<ReminderService["pageDetails"]>>;

function wayBack(details: PageDetails): string {
  const home = escapeHtml(`${details.siteUrl}/`);
  const who = escapeHtml(details.organizerName || "the organiser");
  const contact = details.contactEmail
    ? `<p class="contact">Questions? Write to ${who} at <a href="mailto:${escapeHtml(details.contactEmail)}">${escapeHtml(details.contactEmail)}</a>.</p>`
    : "";
  return `<p class="back"><a href="${home}">Back to ${escapeHtml(details.title)}</a></p>${contact}`;
}

function page(status: number, heading: string, body: string, details: PageDetails): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(heading)} · DREADCAST</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0a0506;color:#eadcdc;font-family:Georgia,'Times New Roman',serif}main{max-width:26rem;margin:1rem;padding:2rem;border:1px solid #7f1d1d;border-radius:12px;background:#140b0d;text-align:center}.brand{color:#ff4d57;letter-spacing:.3em;font-weight:bold}h1{font-size:1.4rem;margin:1rem 0 .5rem}p{line-height:1.5;color:#bfaeae}button{margin-top:1rem;min-height:44px;padding:.65rem 1.4rem;border:1px solid #ff3b47;border-radius:6px;background:linear-gradient(180deg,#e01e2b,#b3121b);color:#fff;font:bold .95rem system-ui,sans-serif;letter-spacing:.08em;cursor:pointer}a{color:#ff4d57}.back{margin-top:1.5rem;padding-top:1rem;border-top:1px solid #3a1517}.back a{display:inline-block;min-height:44px;line-height:44px;font-weight:bold}.contact{font-size:.9rem}</style></head>
<body><main><div class="brand">DREADCAST</div><h1>${escapeHtml(heading)}</h1>${body}${wayBack(details)}</main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_POLICY, "cache-control": "no-store" } });
}

const NOT_VALID = (details: PageDetails) => page(404, "This link is not valid", "<p>It names no pass, so nothing was changed. Use the link in your latest reminder.</p>", details);

const ALREADY_OFF = (details: PageDetails) =>
  page(200, "Reminders were already off", "<p>Nothing was changed: this pass gets no reminders. Your access code still works.</p>", details);

const ANSWERS: Record<UnsubscribeOutcome, (details: PageDetails) => Response> = {
  unsubscribed: (details) => page(200, "Reminders are off", "<p>You will get no more reminders for this pass. Your access code still works.</p>", details),
  already: ALREADY_OFF,
  unknown: NOT_VALID,
};

/**
 * /unsubscribe?token=…: GET asks to confirm (a link scanner opening it changes nothing), or says the
 * reminders are already off; POST stops the pass's reminders, from the page's button or a mail program's
 * one-click unsubscribe (RFC 8058). Every answer leads back to the event's site and its organiser.
 */
export function reminderRoutes(reminders: ReminderService) {
  const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";
  return new Elysia({ name: "reminder-routes" })
    .get("/unsubscribe", async ({ request }) => {
      const token = tokenOf(request);
      const details = await reminders.pageDetails();
      const state = await reminders.state(token);
      if (state === "unknown") return NOT_VALID(details);
      if (state === "off") return ALREADY_OFF(details);
      return page(
        200,
        "Stop the reminders?",
        `<p>No more e-mails before the event for this pass. Your access code keeps working.</p><form method="post" action="/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}"><button type="submit">STOP REMINDERS</button></form>`,
        details,
      );
    })
    .post(
      "/unsubscribe",
      async ({ request }) => {
        const outcome = await reminders.unsubscribe(tokenOf(request));
        return ANSWERS[outcome](await reminders.pageDetails());
      },
      { parse: "none" },
    );
}
