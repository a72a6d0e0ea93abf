import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";

/**
 * A software WebAuthn authenticator for API tests (Chromium's virtual one drives the browser tests): it
 * makes "none"-attestation credentials with a P-256 key and signs assertions, written from the WebAuthn
 * Level 2 spec (authenticator data, COSE keys, CBOR) rather than with the server's library.
 */

/** The few CBOR shapes these messages need: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cbor: ${typeof value}`);
}

const b64url = (b: Buffer | Uint8Array) => Buffer.from(b).toString("base64url");
const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest();

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  signCount: number;
  rpId: string;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** The browser's answer to registration options: a new credential for `rpId`, seen from `origin`. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): Record<string, unknown> {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, "base64url")],
        [-3, Buffer.from(jwk.y, "base64url")],
      ]),
    );
    const id = randomBytes(16);
    const credLen = Buffer.alloc(2);
    credLen.writeUInt16BE(id.length);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x45]), Buffer.alloc(4), Buffer.alloc(16), credLen, id, cose]);
    const clientData = Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }));
    const attestationObject = cbor(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    this.credentials.push({ id: b64url(id), privateKey, signCount: 0, rpId });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
    };
  }

  /** The browser's answer to authentication options, signed with `credential` (default: the first), seen from `origin`. */
  assert(options: { challenge: string; rpId?: string }, origin: string, credential = this.credentials[0]!): Record<string, unknown> {
    credential.signCount++;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(credential.signCount);
    const authData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([0x05]), count]);
    const clientData = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }));
    const signer = createSign("SHA256");
    signer.update(Buffer.concat([authData, sha256(clientData)]));
    const signature = signer.sign(credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: null },
      clientExtensionResults: {},
    };
  }
}
