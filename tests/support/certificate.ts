import { join } from "node:path";

/** Debian's openssl, which the tests that need a certificate are skipped without. */
export const OPENSSL = Bun.which("openssl");

/**
 * A self-signed EC certificate for `name` (good for a day), written to `dir` as `<file>.crt` and
 * `<file>.key` (by default `cert.pem` and `key.pem`); returns both paths. Throws with openssl's message.
 */
export function selfSignedCertificate(dir: string, name: string, file?: string): { cert: string; key: string } {
  const pair = file ? { cert: join(dir, `${file}.crt`), key: join(dir, `${file}.key`) } : { cert: join(dir, "cert.pem"), key: join(dir, "key.pem") };
  const made = Bun.spawnSync(
    [
      OPENSSL!,
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${name}`,
      "-addext",
      `subjectAltName=DNS:${name}`,
      "-keyout",
      pair.key,
      "-out",
      pair.cert,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr.toString()}`);
  return pair;
}
