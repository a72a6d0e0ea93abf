import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { api, ApiError, serverErrorMessage } from "./api-client";

let server: ReturnType<typeof Bun.serve>;
let base = "";
const realFetch = globalThis.fetch;
let seen: RequestInit | undefined;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/json") return Response.json({ ok: true, echo: request.method === "POST" ? await request.json() : null });
      if (path === "/conflict") return Response.json({ error: "An admin account already exists" }, { status: 409 });
      if (path === "/empty-error") return new Response("", { status: 503, statusText: "Service Unavailable" });
      if (path === "/unauthorized") return Response.json({ error: "Not logged in" }, { status: 401 });
      if (path === "/no-content") return new Response(null, { status: 204 });
      return new Response("nope", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  // The client calls fetch with same-origin paths, as in the browser; record what it sends.
  globalThis.fetch = ((input: string, init?: RequestInit) => {
    seen = init;
    return realFetch(base + input, init);
  }) as typeof fetch;
});

afterEach(() => {
  seen = undefined;
});

afterAll(() => {
  globalThis.fetch = realFetch;
  void server.stop(true);
});

describe("api client", () => {
  test("sends credentials and a JSON body, and parses a JSON answer", async () => {
    const body = await api.post<{ ok: boolean; echo: unknown }>("/json", { username: "a" });
    expect(body).toEqual({ ok: true, echo: { username: "a" } });
    expect(seen?.credentials).toBe("include");
    expect((seen?.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });

  test("a non-OK answer throws `status: body`, keeping the server's error message", async () => {
    const error = await api.post("/conflict", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('409: {"error":"An admin account already exists"}');
    expect((error as ApiError).status).toBe(409);
    expect(serverErrorMessage(error)).toBe("An admin account already exists");
  });

  test("an empty error body gives `status: statusText`", async () => {
    const error = await api.get("/empty-error").catch((e: unknown) => e);
    expect((error as Error).message).toBe("503: Service Unavailable");
    expect(serverErrorMessage(error)).toBeNull();
  });

  test("a 401 throws unless the caller asks for null", async () => {
    await expect(api.get("/unauthorized")).rejects.toThrow('401: {"error":"Not logged in"}');
    expect(await api.get("/unauthorized", { on401: "returnNull" })).toBeNull();
  });

  test("an empty success is null", async () => {
    expect(await api.post("/no-content")).toBeNull();
  });

  test("FormData goes as multipart, without a JSON content type", async () => {
    const form = new FormData();
    form.set("thumbnail", new Blob(["x"], { type: "image/png" }), "t.png");
    await api.post("/json-ignored", form).catch(() => null);
    expect(seen?.body).toBe(form);
    expect((seen?.headers as Record<string, string>)["content-type"]).toBeUndefined();
  });
});
