import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";

/** 200 while the database answers, 503 otherwise. */
export function healthRoutes(ctx: AppContext) {
  return new Elysia({ name: "health" }).get("/healthz", ({ set }) => {
    try {
      ctx.db.query("SELECT 1").get();
      return { status: "ok" };
    } catch {
      set.status = 503;
      return { status: "unavailable", error: "Database unreachable" };
    }
  });
}
