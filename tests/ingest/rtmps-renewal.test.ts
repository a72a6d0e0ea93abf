/**
 * A renewed RTMPS certificate is taken up while the listener runs (as Let's Encrypt renews weeks before
 * expiry), and a renewal TLS cannot use — a key that is not the certificate's, a file gone — keeps the
 * certificate in use, with a warning. Certificates made by Debian's openssl; a real TLS client reads them.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { startRtmpsServer } from "../../src/modules/ingest/rtmp/certificate-watch.ts";
import { OPENSSL, selfSignedCertificate } from "../support/certificate.ts";
import { recordingLogger } from "../support/logger.ts";
import { eventually } from "../support/eventually.ts";

if (!OPENSSL) console.log("SKIPPED: the RTMPS certificate renewal test (no openssl to make certificates)");
const dir = mkdtempSync(join(tmpdir(), "dreadcast-rtmps-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const makeCertificate = (name: string) => selfSignedCertificate(dir, `${name}.example`, name);

/** The CN of the certificate a new TLS connection is shown. */
function presented(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.destroy();
    });
    socket.on("error", reject);
  });
}

test.skipIf(!OPENSSL)("a renewed certificate is used for new connections; one TLS refuses, or a file gone, keeps the one in use", async () => {
  const [first, renewed, other] = ["first", "renewed", "other"].map(makeCertificate) as [
    ReturnType<typeof makeCertificate>,
    ReturnType<typeof makeCertificate>,
    ReturnType<typeof makeCertificate>,
  ];
  const live = { cert: join(dir, "live.crt"), key: join(dir, "live.key") };
  copyFileSync(first.cert, live.cert);
  copyFileSync(first.key, live.key);
  const lines: string[] = [];
  const server = await startRtmpsServer({ port: 0, host: "127.0.0.1", logger: recordingLogger(lines), authorize: () => "ok", onPublish: () => ({ end() {} }) as never }, live, 50);
  try {
    expect(await presented(server.port)).toBe("first.example");

    // The renewal lands: new connections get it, without a restart.
    copyFileSync(renewed.cert, live.cert);
    copyFileSync(renewed.key, live.key);
    await eventually(async () => (await presented(server.port)) === "renewed.example", 3000, "the renewed certificate in use");
    expect(lines).toContain(`info: rtmps: certificate reloaded from ${live.cert}`);

    // A certificate whose key is not in place (yet): refused, the renewed one kept.
    copyFileSync(other.cert, live.cert);
    await eventually(() => lines.some((line) => line.startsWith("warn: rtmps: the changed certificate was not taken up")), 3000, "the mismatch warned");
    expect(await presented(server.port)).toBe("renewed.example");
    // Its key arrives: now it is taken up.
    copyFileSync(other.key, live.key);
    await eventually(async () => (await presented(server.port)) === "other.example", 3000, "the completed renewal in use");

    // The files gone: one warning, and connections go on with the certificate in use.
    rmSync(live.key);
    await eventually(() => lines.some((line) => line.includes("cannot be read; the certificate in use is kept")), 3000, "the missing file warned");
    await Bun.sleep(200);
    expect(lines.filter((line) => line.includes("cannot be read")).length).toBe(1);
    expect(await presented(server.port)).toBe("other.example");
  } finally {
    await server.close();
  }
});
