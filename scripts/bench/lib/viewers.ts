/**
 * Viewer sessions made through the real API, as a browser makes them: a test code from
 * GET /api/test/generate-access-code, then POST /api/validate-access with a username and a device
 * fingerprint; the session cookie is what the load generator opens its socket with.
 *
 * Every simulated viewer has its own address, sent as X-Forwarded-For to a server started with
 * `--trust-proxy 127.0.0.1`, so the per-address limits see a crowd of different people, as they would in
 * production. The addresses come from 198.18.0.0/15, the range set aside for benchmarks (RFC 2544); they
 * are only header values, no traffic goes to them.
 */
import { createHash, randomBytes } from "node:crypto";

export interface Viewer {
  username: string;
  /** `dreadcast_viewer=<session id>` */
  cookie: string;
  /** The address the viewer appears to come from (X-Forwarded-For). */
  ip: string;
}

export function benchAddress(i: number): string {
  return `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`;
}

function fingerprint() {
  const fields = {
    userAgent: "Mozilla/5.0 (Linux; Android 14) dreadcast-bench/1.0",
    screenResolution: "390x844",
    colorDepth: 24,
    timezone: "Europe/London",
    language: "en-GB",
    platform: "Linux armv8l",
    webglVendor: "Mesa",
    webglRenderer: "llvmpipe",
    deviceToken: randomBytes(24).toString("hex"),
    createdAt: new Date().toISOString(),
  };
  return { ...fields, fingerprint: createHash("sha256").update(JSON.stringify(fields)).digest("hex") };
}

async function createViewer(baseUrl: string, index: number, prefix: string): Promise<Viewer> {
  const ip = benchAddress(index);
  const headers = { "x-forwarded-for": ip };
  const codeResponse = await fetch(`${baseUrl}/api/test/generate-access-code`, { headers });
  if (!codeResponse.ok) throw new Error(`generate-access-code: ${codeResponse.status} ${await codeResponse.text()}`);
  const { accessCode } = (await codeResponse.json()) as { accessCode: string };
  const username = `${prefix}${index}`;
  const admit = await fetch(`${baseUrl}/api/validate-access`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ accessCode, username, deviceFingerprint: fingerprint(), isTestCode: true }),
  });
  const body = (await admit.json()) as { valid: boolean; message: string };
  if (!admit.ok || !body.valid) throw new Error(`validate-access: ${admit.status} ${body.message}`);
  const cookie = admit.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("dreadcast_viewer="));
  if (!cookie) throw new Error("validate-access set no viewer cookie");
  return { username, cookie, ip };
}

/** `count` viewers, each with a code, a name and a session of its own, `concurrency` at a time. */
export async function createViewers(baseUrl: string, count: number, options: { prefix?: string; concurrency?: number; offset?: number } = {}): Promise<Viewer[]> {
  const { prefix = "viewer", concurrency = 16, offset = 0 } = options;
  const viewers: Viewer[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      viewers[i] = await createViewer(baseUrl, offset + i, prefix);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return viewers;
}
