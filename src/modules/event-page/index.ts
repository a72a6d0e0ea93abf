import { Elysia } from "elysia";
import type { EventPageService } from "./service.ts";

/** GET /event.ics: the event for any calendar (the add-to-calendar button's file). */
export function eventPageRoutes(eventPage: EventPageService) {
  const calendar = async ({ request }: { request: Request }) => {
    const body = await eventPage.calendar();
    const etag = `"${Bun.hash(body).toString(36)}"`;
    const headers = {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": 'attachment; filename="event.ics"',
      // The start may move: asked again each time, answered 304 while it is the same file.
      "cache-control": "no-cache",
      etag,
    };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : body, { headers });
  };
  return new Elysia({ name: "event-page-routes" }).get("/event.ics", calendar).head("/event.ics", calendar);
}
