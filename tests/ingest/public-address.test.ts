/** What OBS is told when a proxy in front forwards RTMP: the proxy's address, not this server's port. */
import { afterAll, expect, test } from "bun:test";
import { ConfigError, parseServeArgs } from "../../src/config.ts";
import { loginAsAdmin, startTestApp, type TestApp } from "../support/app.ts";

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

test("--rtmp-public-url and --rtmps-public-url are what the panel gives OBS", async () => {
  const app = await startTestApp({ rtmpPublicUrl: "rtmp://live.hauntedhouse.tv:1935", rtmpsPublicUrl: "rtmps://live.hauntedhouse.tv:443" });
  apps.push(app);
  const admin = await loginAsAdmin(app);
  expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
  const view = (await admin.get("/api/admin/ingest")).body;
  expect(view.rtmpUrl).toBe("rtmp://live.hauntedhouse.tv:1935/live");
  // RTMPS only where this server has a certificate: none here.
  expect(view.rtmpsUrl).toBeNull();
});

test("a public RTMP address of another scheme is a usage error", () => {
  expect(() => parseServeArgs(["--rtmp-public-url", "http://live.hauntedhouse.tv"], {})).toThrow(ConfigError);
  expect(() => parseServeArgs(["--rtmps-public-url", "rtmp://live.hauntedhouse.tv"], {})).toThrow("unsupported scheme");
  expect(parseServeArgs(["--rtmp-public-url", "rtmp://live.hauntedhouse.tv:1935/"], {}).rtmpPublicUrl).toBe("rtmp://live.hauntedhouse.tv:1935");
});
