import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";

/** 200 while the database answers, 503 otherwise. */
export function healthRoutes(ctx: AppContext) {
  return new Elysia({ name: "health" }).get("/healthz", async ({ set }) => {
    try {
      await ctx.store.get("SELECT 1 AS one");
      return { status: "ok" };
    } catch {
      set.status = 503;
      return { status: "unavailable", error: "Database unreachable" };
    }
  });
}
