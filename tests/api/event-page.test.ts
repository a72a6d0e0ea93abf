import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import ICAL from "ical.js";
import ogs from "open-graph-scraper";
import { DEFAULT_THUMBNAIL_SIZE } from "../../src/modules/event-page/service.ts";
import { imageSize } from "../../src/modules/event-page/image-size.ts";
import { loginAsAdmin, startTestApp, type TestApp } from "../support/app.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { buyDemoCode } from "../support/viewer.ts";

const SITE = "https://night.dreadcast.test";
const START = "2026-10-31T23:30:00.000Z";
/** The built index.html's head as scripts/build-web.ts leaves it. */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0, viewport-fit=cover" />
    <meta name="description" content="DREADCAST: a live horror event. Get your pass, join the chat and watch it unfold live." />
    <title>DREADCAST</title>
    <script type="module" crossorigin src="/index.js"></script>
  <meta name="dreadcast-build" content="abc123def456" /></head>
  <body><div id="root"></div></body>
</html>`;

/** What a sharing site's crawler reads from a page: fetched with a forged Host, parsed by open-graph-scraper. */
async function preview(app: TestApp, path: string) {
  const res = await fetch(app.url + path, { headers: { host: "evil.example", "user-agent": "facebookexternalhit/1.1" } });
  const html = await res.text();
  const { result } = await ogs({ html });
  return { res, html, og: result as Record<string, any> };
}

/** The JSON-LD blocks of a page as a parser reads them. */
async function jsonLd(html: string): Promise<Record<string, any>[]> {
  return ((await ogs({ html })).result as { jsonLD?: Record<string, any>[] }).jsonLD ?? [];
}

/** The event's calendar as ical.js (Mozilla's RFC 5545 parser) reads it. */
function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent("vevent")!;
  const alarm = event.getFirstSubcomponent("valarm")!;
  const value = (name: string) => event.getFirstPropertyValue(name);
  return {
    calendar,
    uid: value("uid") as string,
    sequence: Number(value("sequence")),
    start: (value("dtstart") as ICAL.Time).toJSDate().toISOString(),
    end: (value("dtend") as ICAL.Time).toJSDate().toISOString(),
    startZone: (value("dtstart") as ICAL.Time).zone?.tzid,
    summary: value("summary") as string,
    description: value("description") as string,
    url: value("url") as string,
    trigger: String(alarm.getFirstPropertyValue("trigger")),
    alarmAction: alarm.getFirstPropertyValue("action") as string,
  };
}

/** A real PNG of the given size (one grey channel, every row empty), made here. */
function pngOf(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new DataView(new ArrayBuffer(12 + data.length));
    out.setUint32(0, data.length);
    new Uint8Array(out.buffer).set(body, 4);
    out.setUint32(8 + data.length, Bun.hash.crc32(body));
    return new Uint8Array(out.buffer);
  };
  const ihdr = new DataView(new ArrayBuffer(13));
  ihdr.setUint32(0, width);
  ihdr.setUint32(4, height);
  ihdr.setUint8(8, 8);
  const rows = deflateSync(new Uint8Array((width + 1) * height));
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk("IHDR", new Uint8Array(ihdr.buffer)),
    ...chunk("IDAT", new Uint8Array(rows)),
    ...chunk("IEND", new Uint8Array()),
  ]);
}

let app: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ publicUrl: SITE, smtpUrl: smtp.url }, { page: INDEX });
  await app.ctx.settings.update({ eventTitle: "Hollow Farm", startDate: START });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe("link previews", () => {
  test("the landing page carries the event's title, description, image and card for a crawler that runs no JavaScript", async () => {
    const { res, html, og } = await preview(app, "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(og.ogTitle).toBe("Hollow Farm");
    expect(og.ogDescription).toBe("Hollow Farm — live online Saturday 31 October 2026, 23:30 UTC. Get your pass for £1.00, join the chat and watch it unfold live.");
    expect(og.ogUrl).toBe(`${SITE}/`);
    expect(og.ogType).toBe("website");
    expect(og.ogSiteName).toBe("DREADCAST");
    expect(og.ogImage).toEqual([{ url: `${SITE}/assets/default-thumbnail.jpg`, width: "1280", height: "720", type: "image/jpeg", alt: "Hollow Farm" }]);
    expect(og.twitterCard).toBe("summary_large_image");
    expect(og.twitterTitle).toBe("Hollow Farm");
    expect(og.twitterDescription).toBe(og.ogDescription);
    expect(og.twitterImage?.[0]?.url).toBe(`${SITE}/assets/default-thumbnail.jpg`);
    // The page's own title and description are the event's; the built ones are gone, the rest of the page kept.
    expect(html).toContain("<title>Hollow Farm</title>");
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).toContain('<meta name="dreadcast-build" content="abc123def456" />');
    expect(html).toContain('<script type="module" crossorigin src="/index.js"></script>');
    expect(html).not.toContain("evil.example");
  });

  test("/livestream and /access carry the event too, each with its own address; other pages keep the built head", async () => {
    const live = await preview(app, "/livestream");
    expect(live.og.ogTitle).toBe("Livestream · Hollow Farm");
    expect(live.og.ogUrl).toBe(`${SITE}/livestream`);
    expect(live.og.ogImage[0].url).toBe(`${SITE}/assets/default-thumbnail.jpg`);
    expect(await jsonLd(live.html)).toEqual([]);
    const access = await preview(app, "/access");
    expect(access.og.ogTitle).toBe("Enter The Nightmare · Hollow Farm");
    expect(access.og.ogUrl).toBe(`${SITE}/access`);
    const admin = await preview(app, "/admin/login");
    expect(admin.html).toBe(INDEX);
  });

  test("a change of the settings shows in the next page served, compressed and with a new ETag", async () => {
    const before = await fetch(`${app.url}/`, { headers: { "accept-encoding": "br" } });
    const etag = before.headers.get("etag")!;
    expect(before.headers.get("content-encoding")).toBe("br");
    expect((await fetch(`${app.url}/`, { headers: { "if-none-match": etag } })).status).toBe(304);
    await app.ctx.settings.update({ eventTitle: "Hollow Farm: The Return" });
    try {
      const after = await fetch(`${app.url}/`, { headers: { "accept-encoding": "gzip" } });
      expect(after.headers.get("etag")).not.toBe(etag);
      expect(after.headers.get("content-encoding")).toBe("gzip");
      expect((await ogs({ html: await after.text() })).result.ogTitle).toBe("Hollow Farm: The Return");
    } finally {
      await app.ctx.settings.update({ eventTitle: "Hollow Farm" });
    }
  });

  test("an uploaded thumbnail is the image at its own size; one that is gone, or a path that is not ours, falls back to the default", async () => {
    const admin = await loginAsAdmin(app);
    const form = new FormData();
    form.set("thumbnail", new Blob([pngOf(1200, 630) as Uint8Array<ArrayBuffer>], { type: "image/png" }), "poster.png");
    const upload = await admin.post("/api/admin/upload-thumbnail", form);
    expect(upload.status).toBe(200);
    const fallback = [{ url: `${SITE}/assets/default-thumbnail.jpg`, width: "1280", height: "720", type: "image/jpeg", alt: "Hollow Farm" }];
    try {
      await app.ctx.settings.update({ thumbnailUrl: upload.body.thumbnailUrl });
      expect((await preview(app, "/")).og.ogImage).toEqual([{ url: `${SITE}${upload.body.thumbnailUrl}`, width: "1200", height: "630", type: "image/png", alt: "Hollow Farm" }]);
      await app.ctx.settings.update({ thumbnailUrl: `/uploads/${"0".repeat(32)}.png` });
      expect((await preview(app, "/")).og.ogImage).toEqual(fallback);
      await app.ctx.settings.update({ thumbnailUrl: "javascript:alert(1)" });
      expect((await preview(app, "/")).og.ogImage).toEqual(fallback);
      await app.ctx.settings.update({ thumbnailUrl: "https://cdn.example.net/poster.jpg" });
      expect((await preview(app, "/")).og.ogImage[0].url).toBe("https://cdn.example.net/poster.jpg");
    } finally {
      await app.ctx.settings.update({ thumbnailUrl: "/assets/default-thumbnail.jpg" });
    }
  });

  test("the default thumbnail's stated size is the file's own", () => {
    expect(imageSize(readFileSync(join(import.meta.dir, "../../web/public/assets/default-thumbnail.jpg")))).toEqual(DEFAULT_THUMBNAIL_SIZE);
    expect(imageSize(pngOf(1200, 630))).toEqual({ width: 1200, height: 630 });
  });

  test("without --public-url the address is the one the server listens on, whatever Host the request names", async () => {
    const local = await startTestApp({}, { page: INDEX });
    try {
      const { og, html } = await preview(local, "/");
      expect(og.ogUrl).toBe(`${local.url}/`);
      expect(og.ogImage[0].url).toBe(`${local.url}/assets/default-thumbnail.jpg`);
      expect(html).not.toContain("evil.example");
    } finally {
      await local.close();
    }
  });
});

describe("the landing page's first paint", () => {
  /** The public settings the page carries for its first paint, as the web app reads them. */
  const inlineSettings = (html: string) => {
    const found = /<script type="application\/json" id="dreadcast-settings">([\s\S]*?)<\/script>/.exec(html);
    return found ? (JSON.parse(found[1]!) as Record<string, unknown>) : null;
  };

  test("the page carries the public settings anyone may read, and asks for the banner at once", async () => {
    const viewer = app.client();
    await buyDemoCode(viewer);
    const html = await (await fetch(`${app.url}/`)).text();
    const carried = inlineSettings(html);
    // What GET /api/livestream-settings tells a visitor with no pass, field for field.
    expect(carried).toEqual((await app.client().get("/api/livestream-settings")).body as Record<string, unknown>);
    expect(carried).toMatchObject({ eventTitle: "Hollow Farm", startDate: START, embedUrl: "" });
    // The default banner in two widths, as the page's <img> offers them, fetched first.
    expect(html).toContain(
      '<link rel="preload" as="image" href="/assets/default-thumbnail.jpg" imagesrcset="/assets/default-thumbnail-720.jpg 720w, /assets/default-thumbnail.jpg 1280w" imagesizes="(max-width: 1120px) calc(100vw - 2rem), 1088px" fetchpriority="high" />',
    );
    // The livestream page carries the same (the viewer's own, with the stream link, come once the pass is
    // checked), with no banner: it shows none. The others ask for the settings when they need them.
    for (const path of ["/livestream", "/livestream-new"]) {
      const page = await (await fetch(`${app.url}${path}`)).text();
      expect(inlineSettings(page)).toEqual(carried!);
      expect(page).not.toContain('rel="preload" as="image"');
    }
    for (const path of ["/access", "/admin/login"]) expect(inlineSettings(await (await fetch(`${app.url}${path}`)).text())).toBeNull();
  });

  test("a new title is in the next page served; a banner set by address is the one asked for", async () => {
    await app.ctx.settings.update({ eventTitle: "Hollow Farm: The Return", thumbnailUrl: "https://images.example/barn.jpg?a=1&b=2" });
    try {
      const html = await (await fetch(`${app.url}/`)).text();
      expect(inlineSettings(html)).toMatchObject({ eventTitle: "Hollow Farm: The Return", displayThumbnail: "https://images.example/barn.jpg?a=1&b=2" });
      expect(html).toContain('<link rel="preload" as="image" href="https://images.example/barn.jpg?a=1&amp;b=2" fetchpriority="high" />');
    } finally {
      await app.ctx.settings.update({ eventTitle: "Hollow Farm", thumbnailUrl: "" });
    }
  });

  test("a title that holds </script> stays inside the settings' block", async () => {
    const hostile = `</script><script>alert(1)</script> & "quotes" \u2028 🎃`;
    await app.ctx.settings.update({ eventTitle: hostile });
    try {
      const html = await (await fetch(`${app.url}/`)).text();
      expect(html).not.toContain("<script>alert(1)");
      expect(inlineSettings(html)?.eventTitle).toBe(hostile);
    } finally {
      await app.ctx.settings.update({ eventTitle: "Hollow Farm" });
    }
  });
});

describe("the event for search engines", () => {
  test("the landing page holds a schema.org Event: online, at the site, with the pass as its offer", async () => {
    const [event, ...rest] = await jsonLd((await preview(app, "/")).html);
    expect(rest).toEqual([]);
    expect(event).toEqual({
      "@context": "https://schema.org",
      "@type": "Event",
      name: "Hollow Farm",
      description: expect.stringContaining("Saturday 31 October 2026, 23:30 UTC"),
      startDate: "2026-10-31T23:30:00+00:00",
      endDate: "2026-11-01T01:30:00+00:00",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
      location: { "@type": "VirtualLocation", url: `${SITE}/` },
      image: [`${SITE}/assets/default-thumbnail.jpg`],
      offers: { "@type": "Offer", name: "Access pass", price: "1.00", priceCurrency: "GBP", availability: "https://schema.org/InStock", url: `${SITE}/` },
    });
  });

  test("the organiser appears once their name is set, with their profiles", async () => {
    await app.ctx.settings.update({ organizerName: "Night Owl Events", contactEmail: "help@nightowl.example", socialLinks: { youtube: "https://youtube.com/@nightowl" } });
    try {
      const [event] = await jsonLd((await preview(app, "/")).html);
      expect(event!.organizer).toEqual({
        "@type": "Organization",
        name: "Night Owl Events",
        url: "https://youtube.com/@nightowl",
        email: "help@nightowl.example",
        sameAs: ["https://youtube.com/@nightowl"],
      });
    } finally {
      await app.ctx.settings.update({ organizerName: "", contactEmail: "", socialLinks: { youtube: "" } });
    }
  });
});

describe("the event's status for search engines", () => {
  test("a start moved after a sale is rescheduled, with the start sold before; after the night the pass is sold out", async () => {
    const own = await startTestApp({ publicUrl: SITE }, { page: INDEX });
    try {
      const admin = await loginAsAdmin(own);
      expect((await admin.put("/api/admin/livestream-settings", { startDate: START })).status).toBe(200);
      // Moved before any sale: still simply scheduled.
      expect((await jsonLd((await preview(own, "/")).html))[0]!.eventStatus).toBe("https://schema.org/EventScheduled");
      await buyDemoCode(own.client());
      const later = "2026-11-01T00:30:00.000Z";
      expect((await admin.put("/api/admin/livestream-settings", { startDate: later })).status).toBe(200);
      const [moved] = await jsonLd((await preview(own, "/")).html);
      expect(moved).toMatchObject({ eventStatus: "https://schema.org/EventRescheduled", previousStartDate: "2026-10-31T23:30:00+00:00", startDate: "2026-11-01T00:30:00+00:00" });
      expect((moved!.offers as { availability: string }).availability).toBe("https://schema.org/InStock");
      // The night ended, with no replay: nothing is sold, and the Event says so at once.
      expect((await admin.put("/api/admin/livestream-settings", { replayEnabled: false })).status).toBe(200);
      expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
      expect(((await jsonLd((await preview(own, "/")).html))[0]!.offers as { availability: string }).availability).toBe("https://schema.org/SoldOut");
    } finally {
      await own.close();
    }
  }, 30_000);

  test("a cancelled event is EventCancelled and sold out, and its calendar file is a cancellation; opened again it is scheduled and published anew", async () => {
    const own = await startTestApp({ publicUrl: SITE }, { page: INDEX });
    try {
      const admin = await loginAsAdmin(own);
      const ahead = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
      expect((await admin.put("/api/admin/livestream-settings", { startDate: ahead, isActive: false })).status).toBe(200);
      const before = parseCalendar(await (await fetch(`${own.url}/event.ics`)).text());
      expect(before.calendar.getFirstPropertyValue("method")).toBe("PUBLISH");

      expect((await admin.post("/api/admin/event/cancel", { note: "The barn flooded." })).status).toBe(200);
      const [cancelled] = await jsonLd((await preview(own, "/")).html);
      expect(cancelled).toMatchObject({ eventStatus: "https://schema.org/EventCancelled" });
      expect((cancelled!.offers as { availability: string }).availability).toBe("https://schema.org/SoldOut");
      const text = await (await fetch(`${own.url}/event.ics`)).text();
      const calendar = new ICAL.Component(ICAL.parse(text));
      const event = calendar.getFirstSubcomponent("vevent")!;
      expect(calendar.getFirstPropertyValue("method")).toBe("CANCEL");
      expect(event.getFirstPropertyValue("status")).toBe("CANCELLED");
      expect(event.getFirstPropertyValue("uid")).toBe(before.uid);
      expect(Number(event.getFirstPropertyValue("sequence"))).toBe(before.sequence + 1);
      // No alarm for an event that will not happen.
      expect(event.getFirstSubcomponent("valarm")).toBeNull();

      // Taken back: scheduled again, the calendar entry published again under a higher sequence.
      expect((await admin.post("/api/admin/event/open", {})).status).toBe(200);
      expect((await jsonLd((await preview(own, "/")).html))[0]!.eventStatus).toBe("https://schema.org/EventScheduled");
      const again = parseCalendar(await (await fetch(`${own.url}/event.ics`)).text());
      expect(again.calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
      expect(again.sequence).toBe(before.sequence + 2);
    } finally {
      await own.close();
    }
  }, 30_000);
});

describe("the calendar file", () => {
  test("GET /event.ics is an RFC 5545 calendar: the event in UTC, two hours long, a reminder 15 minutes before", async () => {
    const res = await fetch(`${app.url}/event.ics`, { headers: { host: "evil.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="event.ics"');
    const text = await res.text();
    expect(text).not.toContain("evil.example");
    const ics = parseCalendar(text);
    expect(ics.calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(ics.calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(ics.uid).toMatch(/^[0-9a-f-]{36}@night\.dreadcast\.test$/);
    expect(ics.start).toBe(START);
    expect(ics.startZone).toBe("UTC");
    expect(ics.end).toBe("2026-11-01T01:30:00.000Z");
    expect(ics.summary).toBe("Hollow Farm");
    expect(ics.description).toContain(`${SITE}/access`);
    expect(ics.url).toBe(`${SITE}/`);
    expect(ics.trigger).toBe("-PT15M");
    expect(ics.alarmAction).toBe("DISPLAY");
    expect((await fetch(`${app.url}/event.ics`, { headers: { "if-none-match": res.headers.get("etag")! } })).status).toBe(304);
  });

  test("a new start or length raises SEQUENCE under the same UID; a new title alone does not", async () => {
    const read = async () => parseCalendar(await (await fetch(`${app.url}/event.ics`)).text());
    const first = await read();
    await app.ctx.settings.update({ startDate: "2026-11-07T21:00:00.000Z" });
    const moved = await read();
    expect(moved.uid).toBe(first.uid);
    expect(moved.sequence).toBe(first.sequence + 1);
    expect(moved.start).toBe("2026-11-07T21:00:00.000Z");
    await app.ctx.settings.update({ startDate: "2026-11-07T21:00:00Z", eventTitle: "Hollow Farm" });
    expect((await read()).sequence).toBe(moved.sequence);
    const admin = await loginAsAdmin(app);
    expect((await admin.put("/api/admin/livestream-settings", { durationMinutes: 90 })).status).toBe(200);
    const shorter = await read();
    expect(shorter.sequence).toBe(moved.sequence + 1);
    expect(shorter.end).toBe("2026-11-07T22:30:00.000Z");
    expect((await admin.put("/api/admin/livestream-settings", { durationMinutes: 5 })).body).toEqual({ error: "Duration must be at least 15 minutes" });
    await app.ctx.settings.update({ startDate: START, durationMinutes: 120 });
  });

  test("the purchase e-mail carries the calendar file as text/calendar", async () => {
    const { accessCode } = await buyDemoCode(app.client(), "calendar@example.com");
    const mail = await smtp.waitFor((m) => m.text.includes(accessCode));
    expect(mail.calendars).toHaveLength(1);
    const [part] = mail.calendars;
    expect(part!.contentType).toMatch(/^text\/calendar; charset=utf-8; method=PUBLISH/i);
    expect(part!.disposition).toMatch(/^attachment; filename="?event\.ics"?$/);
    const ics = parseCalendar(part!.content);
    expect(ics.summary).toBe("Hollow Farm");
    expect(ics.start).toBe(START);
    expect(ics.uid).toBe(parseCalendar(await (await fetch(`${app.url}/event.ics`)).text()).uid);
  });
});

describe("bad input in the title", () => {
  const HOSTILE = `"Night" & 'Day' </script><script>alert(1)</script> <b>bold</b> \\;, 🎃🩸 ${"$&"} $1`;

  test("quotes, markup, script and emoji come out as the same text in every tag, the JSON-LD and the .ics", async () => {
    await app.ctx.settings.update({ eventTitle: HOSTILE });
    try {
      const { og, html } = await preview(app, "/");
      expect(og.ogTitle).toBe(HOSTILE);
      expect(og.twitterTitle).toBe(HOSTILE);
      expect(og.ogImage[0].alt).toBe(HOSTILE);
      expect(og.ogDescription).toStartWith(`${HOSTILE} — live online`);
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("<b>bold");
      // The JSON-LD and the first-paint settings, each whole: the title's </script> ended neither.
      expect(html.match(/<\/script>/g)!.length).toBe(3);
      const [event] = await jsonLd(html);
      expect(event!.name).toBe(HOSTILE);
      const ics = parseCalendar(await (await fetch(`${app.url}/event.ics`)).text());
      expect(ics.summary).toBe(HOSTILE);
      expect(ics.description).toStartWith(`${HOSTILE}, streamed live online.`);
    } finally {
      await app.ctx.settings.update({ eventTitle: "Hollow Farm" });
    }
  });

  test("5,000 characters (a title saved before the limit) are trimmed in every tag, emoji never cut in half, .ics lines folded at 75 octets", async () => {
    const long = "🎃 Hollow Farm ".repeat(400).slice(0, 5000);
    await app.ctx.store.run("UPDATE livestream_settings SET event_title = ? WHERE id = 1", long);
    try {
      const { og, html } = await preview(app, "/");
      const graphemes = (s: string) => [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(s)].length;
      expect(og.ogTitle.endsWith("…")).toBe(true);
      expect(graphemes(og.ogTitle)).toBeLessThanOrEqual(100);
      expect(long.startsWith(og.ogTitle.slice(0, -1))).toBe(true);
      expect(graphemes(og.ogDescription)).toBeLessThanOrEqual(300);
      expect(og.ogDescription).toStartWith(`${og.ogTitle} — live online`);
      expect(html).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      // The tags are trimmed; the page's own copy of the settings carries the title whole, as the API does.
      const tags = html.replace(/<script type="application\/json" id="dreadcast-settings">[\s\S]*?<\/script>/, "");
      expect(tags.length).toBeLessThan(INDEX.length + 6000);
      const [event] = await jsonLd(html);
      expect(event!.name).toBe(og.ogTitle);
      const text = await (await fetch(`${app.url}/event.ics`)).text();
      expect(text.endsWith("\r\n")).toBe(true);
      for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(text).toMatch(/\r\n [^\r\n]/);
      expect(parseCalendar(text).summary).toBe(og.ogTitle);
    } finally {
      await app.ctx.settings.update({ eventTitle: "Hollow Farm" });
    }
  });

  test("a title longer than the settings allow is refused with 400", async () => {
    const admin = await loginAsAdmin(app);
    const res = await admin.put("/api/admin/livestream-settings", { eventTitle: "x".repeat(5000) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Event title must be 200 characters or less" });
  });
});

describe("the stream screen's code, named in its page", () => {
  const SCREEN = "/assets/livestream-page-a1b2c3d4.js";
  const SHARED = "/assets/index-e5f6a7b8.js";
  const STYLES = "/assets/livestream-page-c9d0e1f2.css";
  let site: TestApp;
  beforeAll(async () => {
    site = await startTestApp(
      { publicUrl: SITE },
      {
        page: INDEX,
        files: { [SCREEN]: "export const page = 1;", [SHARED]: "export const shared = 1;", [STYLES]: ".stream-page { color: red }" },
        // A file this build no longer serves and a name that is no file of ours are never named.
        preloads: Object.fromEntries(
          ["/livestream", "/livestream-new", "/elsewhere"].map((path) => [path, [SCREEN, SHARED, STYLES, "/assets/gone-0000.js", '/assets/x"><script>.js']]),
        ),
      },
    );
  });
  afterAll(() => site.close());

  /** The page's preload links, as [rel, as, href]: each at low priority, so the entry comes first. */
  const preloadsOf = (html: string) =>
    [...html.matchAll(/<link rel="(modulepreload|preload)"(?: as="(\w+)")? href="([^"]+)" fetchpriority="low" \/>/g)]
      .filter((m) => m[3]!.startsWith("/assets/"))
      .map((m) => [m[1], m[2] ?? null, m[3]]);

  test("/livestream asks for the screen's scripts and stylesheet with the entry, beside its own head", async () => {
    for (const path of ["/livestream", "/livestream-new"]) {
      const res = await fetch(site.url + path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(preloadsOf(html)).toEqual([
        ["modulepreload", null, SCREEN],
        ["modulepreload", null, SHARED],
        ["preload", "style", STYLES],
      ]);
      expect(html).toContain("<title>Livestream · DREADCAST: The Night It Streams</title>");
      expect(html.indexOf("modulepreload")).toBeLessThan(html.indexOf("</head>"));
      expect(html).not.toContain("gone-0000");
      expect(html).not.toContain("<script>.js");
      // Each named file is served, cached for good.
      for (const [, , href] of preloadsOf(html)) {
        const file = await fetch(site.url + href!);
        expect(file.status).toBe(200);
        expect(file.headers.get("cache-control")).toContain("immutable");
      }
    }
  });

  test("a page with no head of its own keeps the built one and gets the tags; the landing and other pages get none", async () => {
    const elsewhere = await (await fetch(site.url + "/elsewhere")).text();
    expect(elsewhere).toContain("<title>DREADCAST</title>");
    expect(elsewhere).toContain('<meta name="description"');
    expect(preloadsOf(elsewhere).map(([, , href]) => href)).toEqual([SCREEN, SHARED, STYLES]);
    for (const path of ["/", "/access", "/admin/login"]) expect(preloadsOf(await (await fetch(site.url + path)).text())).toEqual([]);
  });
});
