import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ACCESS_MESSAGES } from "../../src/contracts/access-messages.ts";
import { startExecutable, type Executable } from "../support/executable.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

const BINARY = resolve(import.meta.dir, "../../dist/dreadcast");
let server: Executable;
let url = "";
let dir = "";

beforeAll(async () => {
  if (!existsSync(BINARY)) {
    const build = Bun.spawnSync([process.execPath, resolve(import.meta.dir, "../../scripts/build.ts")], { stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) throw new Error("build failed");
  }
  dir = mkdtempSync(join(tmpdir(), "dreadcast-smoke-"));
  copyFileSync(BINARY, join(dir, "dreadcast"));
  // Run from an empty directory with nothing beside the executable: the web app must come from inside it.
  server = await startExecutable(join(dir, "dreadcast"), ["--port", "0", "--host", "127.0.0.1"], { cwd: dir, env: { PATH: "/usr/bin:/bin" } });
  url = server.url;
}, 120_000);

afterAll(async () => {
  await server.kill("SIGTERM");
});

test("the executable names the version it was built as, with no checkout to ask, in --version and /readyz", async () => {
  const proc = Bun.spawn([join(dir, "dreadcast"), "--version"], { cwd: dir, env: { PATH: "/usr/bin:/bin" }, stdout: "pipe" });
  const printed = (await new Response(proc.stdout).text()).trim();
  expect(await proc.exited).toBe(0);
  const ready = (await (await fetch(url + "/readyz")).json()) as { version: string };
  expect(printed).toBe(`dreadcast ${ready.version}`);
  expect(server.output()).toContain(`dreadcast ${ready.version} listening on`);
});

test("the executable creates its data dir beside where it runs", () => {
  expect(readdirSync(join(dir, "data"))).toContain("dreadcast.db");
});

test("/ and a deep page route serve index.html with no-cache; a page that does not exist is the same page with a 404", async () => {
  for (const [path, status] of [
    ["/", 200],
    ["/admin/login", 200],
    ["/livestream", 200],
    ["/some/unknown/page", 404],
  ] as const) {
    const res = await fetch(url + path);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toContain('<div id="root">');
  }
});

test("a hashed asset is served immutable and compressed", async () => {
  const html = await (await fetch(url + "/")).text();
  const script = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
  const br = await fetch(url + script, { headers: { "accept-encoding": "br" }, decompress: false } as RequestInit);
  expect(br.status).toBe(200);
  expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(br.headers.get("content-encoding")).toBe("br");
  expect(br.headers.get("content-type")).toContain("javascript");
  const gzip = await fetch(url + script, { headers: { "accept-encoding": "gzip" }, decompress: false } as RequestInit);
  expect(gzip.headers.get("content-encoding")).toBe("gzip");
  const plain = await fetch(url + script, { headers: { "accept-encoding": "identity" } });
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect((await plain.text()).length).toBeGreaterThan(1000);
});

test("the default thumbnail ships inside the executable", async () => {
  const res = await fetch(url + "/assets/default-thumbnail.jpg");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/jpeg");
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
});

test("a missing asset is a 404, not the HTML page", async () => {
  const res = await fetch(url + "/assets/missing-abc123.js");
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).not.toContain("text/html");
});

test("healthz answers 200", async () => {
  const res = await fetch(url + "/healthz");
  expect(res.status).toBe(200);
});

test("while it serves, the executable backs its event up and restores the archive (age and tar inside it)", async () => {
  const env = { PATH: "/usr/bin:/bin", DREADCAST_BACKUP_PASSPHRASE: "wormwood lantern cellar 1907" };
  const archive = join(dir, "night.dreadcast");
  const backup = Bun.spawnSync([join(dir, "dreadcast"), "backup", archive], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  expect(backup.stderr.toString()).toBe("");
  expect(backup.exitCode).toBe(0);
  expect(backup.stdout.toString()).toContain(`backup written to ${archive}`);
  const restored = join(dir, "restored");
  const restore = Bun.spawnSync([join(dir, "dreadcast"), "restore", archive, "--data-dir", restored], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  expect(restore.stderr.toString()).toBe("");
  expect(restore.exitCode).toBe(0);
  expect(readdirSync(restored)).toContain("dreadcast.db");
}, 30_000);

test("the minified executable reads the body of every way onto the stream (a code it does not know is refused as such, not as a missing body)", async () => {
  const headers = { "content-type": "application/json", origin: url };
  const body = JSON.stringify({ accessCode: "SKP-AAAA-BBBB-CCCC-DDDD", username: "Smoke", deviceFingerprint: makeFingerprint() });
  for (const path of ["/api/validate-access", "/api/verify-existing-access", "/api/verify-stream-access"]) {
    const answer = (await (await fetch(url + path, { method: "POST", headers, body })).json()) as { message?: string; error?: string };
    expect({ path, message: answer.message ?? answer.error }).toEqual({ path, message: ACCESS_MESSAGES.invalidCode });
  }
});
