import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ADMIN_ENROL_NEEDED_EVENT, ADMIN_ROLE_REFUSED_EVENT, api, ApiError } from "./api-client";
import { refusalOf, setStepUpPrompt } from "./step-up";

let server: ReturnType<typeof Bun.serve>;
let base = "";
const realFetch = globalThis.fetch;
const hadWindow = "window" in globalThis;
/** Whether the member has confirmed it's them since the last reset, and how often the guarded call came. */
let proved = false;
let guardedCalls = 0;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/api/admin/reauth") {
        proved = true;
        return Response.json({ ok: true });
      }
      if (path === "/api/admin/ingest/rotate-key") {
        guardedCalls++;
        return proved ? Response.json({ rotated: true }) : Response.json({ error: "Confirm it's you to continue", reauth: true }, { status: 403 });
      }
      if (path === "/api/admin/stats") return Response.json({ error: "Set up two-factor sign-in to continue", enrol: true }, { status: 403 });
      if (path === "/api/admin/payments") return Response.json({ error: "Your role does not allow this" }, { status: 403 });
      return new Response("nope", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  globalThis.fetch = ((input: string, init?: RequestInit) => realFetch(base + input, init)) as typeof fetch;
  // The client tells the panel through window events; an EventTarget stands in for the page's window.
  if (!hadWindow) Object.assign(globalThis, { window: new EventTarget() });
});

beforeEach(() => {
  proved = false;
  guardedCalls = 0;
});

afterAll(() => {
  globalThis.fetch = realFetch;
  if (!hadWindow) Reflect.deleteProperty(globalThis, "window");
  void server.stop(true);
});

describe("step-up in the API client", () => {
  test("calls refused for a stale proof ask the member once, then each is sent again and answers", async () => {
    let prompts = 0;
    const unregister = setStepUpPrompt(async () => {
      prompts++;
      await api.post("/api/admin/reauth", { password: "pw" });
      return true;
    });
    try {
      const answers = await Promise.all([api.post("/api/admin/ingest/rotate-key"), api.post("/api/admin/ingest/rotate-key")]);
      expect(answers).toEqual([{ rotated: true }, { rotated: true }]);
      expect(prompts).toBe(1);
      expect(guardedCalls).toBe(4);
    } finally {
      unregister();
    }
  });

  test("given up: the server's refusal is thrown and the call is not sent again", async () => {
    const unregister = setStepUpPrompt(async () => false);
    try {
      const error = await api.post("/api/admin/ingest/rotate-key").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(403);
      expect((error as ApiError).serverMessage).toBe("Confirm it's you to continue");
      expect(guardedCalls).toBe(1);
    } finally {
      unregister();
    }
  });

  test("a call is sent again once only: refused a second time, the refusal is thrown", async () => {
    let prompts = 0;
    const unregister = setStepUpPrompt(async () => {
      prompts++;
      return true;
    });
    try {
      await expect(api.post("/api/admin/ingest/rotate-key")).rejects.toThrow("403");
      expect(prompts).toBe(1);
      expect(guardedCalls).toBe(2);
    } finally {
      unregister();
    }
  });

  test("with no prompt mounted the refusal is thrown as it came", async () => {
    await expect(api.post("/api/admin/ingest/rotate-key")).rejects.toThrow("Confirm it's you to continue");
    expect(guardedCalls).toBe(1);
  });

  test("a call refused until two factors are set up tells the panel, and throws", async () => {
    let told = 0;
    const listener = () => told++;
    window.addEventListener(ADMIN_ENROL_NEEDED_EVENT, listener);
    try {
      await expect(api.get("/api/admin/stats")).rejects.toThrow("403");
      expect(told).toBe(1);
    } finally {
      window.removeEventListener(ADMIN_ENROL_NEEDED_EVENT, listener);
    }
  });
});

describe("a call refused for the role", () => {
  test("tells the panel to read the member's profile again (an owner may have changed it), and throws; a reauth or enrol refusal does not", async () => {
    let told = 0;
    const listener = () => told++;
    window.addEventListener(ADMIN_ROLE_REFUSED_EVENT, listener);
    try {
      await expect(api.get("/api/admin/payments")).rejects.toThrow("403: ");
      expect(told).toBe(1);
      await expect(api.get("/api/admin/stats")).rejects.toThrow("403");
      expect(told).toBe(1);
    } finally {
      window.removeEventListener(ADMIN_ROLE_REFUSED_EVENT, listener);
    }
  });
});

test("a refusal's body says reauth or enrol; anything else is neither", () => {
  expect(refusalOf('{"error":"x","reauth":true}')).toEqual({ reauth: true, enrol: false });
  expect(refusalOf('{"error":"x","enrol":true}')).toEqual({ reauth: false, enrol: true });
  expect(refusalOf('{"error":"Your role does not allow this"}')).toEqual({ reauth: false, enrol: false });
  expect(refusalOf('{"reauth":"true"}')).toEqual({ reauth: false, enrol: false });
  expect(refusalOf("Forbidden")).toEqual({ reauth: false, enrol: false });
});
