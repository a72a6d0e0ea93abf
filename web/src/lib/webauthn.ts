/**
 * Passkeys and security keys in the browser (WebAuthn). The server sends its options as JSON, binary
 * fields in base64url; the browser wants them as bytes, and answers with bytes that go back as base64url.
 * Converted here, by hand, so the admin panel needs no WebAuthn package of its own.
 */
import { PASSKEYS_NEED_A_HOST_NAME } from "@contracts/team";

/** A credential the server names: its id, and how the browser may reach it. */
interface CredentialDescriptorJSON {
  id: string;
  type: "public-key";
  transports?: string[];
}

/** What `/api/admin/2fa/webauthn/register-options` answers. */
export interface CreationOptionsJSON {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: { type: "public-key"; alg: number }[];
  timeout?: number;
  excludeCredentials?: CredentialDescriptorJSON[];
  authenticatorSelection?: AuthenticatorSelectionCriteria;
  attestation?: AttestationConveyancePreference;
  extensions?: AuthenticationExtensionsClientInputs;
}

/** What the sign-in and step-up `webauthn-options` calls answer. */
export interface RequestOptionsJSON {
  challenge: string;
  rpId?: string;
  timeout?: number;
  allowCredentials?: CredentialDescriptorJSON[];
  userVerification?: UserVerificationRequirement;
  extensions?: AuthenticationExtensionsClientInputs;
}

/** A credential as the server reads it: `id`, `rawId`, `type` and the `response` fields in base64url. */
export type CredentialJSON = {
  id: string;
  rawId: string;
  type: "public-key";
  response: Record<string, unknown>;
  clientExtensionResults: AuthenticationExtensionsClientOutputs;
  authenticatorAttachment?: string;
};

export function toBase64url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "="));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function descriptor(credential: CredentialDescriptorJSON): PublicKeyCredentialDescriptor {
  return { id: fromBase64url(credential.id), type: "public-key", transports: credential.transports as AuthenticatorTransport[] | undefined };
}

/** Whether this browser can use passkeys and security keys at all. */
export function webauthnSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/** Whether a page's host name is an IP address (v4, or v6 in brackets), where browsers refuse passkeys. */
export function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith("[");
}

/** What went wrong with a key, in the member's words (the browser's own errors name no key). */
export function webauthnFailure(error: unknown): string {
  const name = error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return "The security key request was cancelled or timed out. Try again.";
  if (name === "InvalidStateError") return "This key is already registered to your account.";
  if (name === "SecurityError") return isIpAddress(location.hostname) ? PASSKEYS_NEED_A_HOST_NAME : "Passkeys only work on this site's own address (check --public-url).";
  if (name === "NotSupportedError") return "This browser or key cannot make a passkey here.";
  return error instanceof Error && error.message ? error.message : "The security key did not answer. Try again.";
}

/** Makes a new passkey or security-key credential for the options the server gave. */
export async function createCredential(options: CreationOptionsJSON): Promise<CredentialJSON> {
  const publicKey: PublicKeyCredentialCreationOptions = {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: options.excludeCredentials?.map(descriptor),
  };
  const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
  if (!credential) throw new Error("The security key did not answer. Try again.");
  const response = credential.response as AuthenticatorAttestationResponse;
  const publicKeyBytes = response.getPublicKey?.();
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      transports: response.getTransports?.() ?? [],
      authenticatorData: response.getAuthenticatorData ? toBase64url(response.getAuthenticatorData()) : undefined,
      publicKeyAlgorithm: response.getPublicKeyAlgorithm?.(),
      publicKey: publicKeyBytes ? toBase64url(publicKeyBytes) : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** Proves this browser holds one of the keys the options allow (a sign-in or a step-up). */
export async function getAssertion(options: RequestOptionsJSON): Promise<CredentialJSON> {
  const publicKey: PublicKeyCredentialRequestOptions = {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: options.allowCredentials?.map(descriptor),
  };
  const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential | null;
  if (!credential) throw new Error("The security key did not answer. Try again.");
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}
