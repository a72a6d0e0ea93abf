import { createPrivateKey, sign, type JsonWebKeyInput, type KeyObject } from "node:crypto";
import { privateKeyText } from "../../contracts/stream.ts";

/** An RSA private key from a PEM, base64 PEM, JWK or base64 JWK, or null when it is none of these. */
export function loadRsaPrivateKey(input: string): KeyObject | null {
  const text = privateKeyText(input);
  if (text === null) return null;
  try {
    const key = text.startsWith("{") ? createPrivateKey({ key: JSON.parse(text) as JsonWebKeyInput["key"], format: "jwk" }) : createPrivateKey(text);
    return key.asymmetricKeyType === "rsa" ? key : null;
  } catch {
    return null;
  }
}

/** The key in the one form we store: PKCS#8 PEM. */
export function toPem(key: KeyObject): string {
  return key.export({ type: "pkcs8", format: "pem" }).toString();
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A compact RS256 JWS (RSASSA-PKCS1-v1_5 with SHA-256) of these claims. */
export function signRs256(kid: string, claims: Record<string, string | number>, key: KeyObject): string {
  const input = `${base64url({ alg: "RS256", typ: "JWT", kid })}.${base64url(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), key).toString("base64url")}`;
}
