import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file in the data directory holding the key that seals secrets kept in the database. */
export const SECRET_KEY_FILE = "secrets.key";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets at rest (AES-256-GCM), sealed under a key kept beside the database rather than in it, so a copy
 * of the database alone (a backup, a dump) does not give them away. The key is made on first use. `label`
 * is bound in as additional data: a sealed value moved to another use does not open there.
 */
export class SecretBox {
  private key: Buffer | null = null;

  /** `key`: the 32 bytes given with --secret-key; without it, the key file in `dataDir` (made on first use). */
  constructor(
    private readonly dataDir: string,
    key: Buffer | null = null,
  ) {
    if (key && key.length !== 32) throw new Error("the secret key must be 32 bytes");
    this.key = key;
    this.given = key !== null;
  }

  private readonly given: boolean;

  /** Where the key lives (for messages to the operator). */
  get path(): string {
    return this.given ? "--secret-key" : join(this.dataDir, SECRET_KEY_FILE);
  }

  private loadKey(): Buffer {
    if (this.key) return this.key;
    const path = this.path;
    try {
      this.key = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      mkdirSync(this.dataDir, { recursive: true });
      try {
        writeFileSync(path, randomBytes(32), { flag: "wx", mode: 0o600 });
      } catch (raced) {
        // Another process made it first: theirs is the key.
        if ((raced as NodeJS.ErrnoException).code !== "EEXIST") throw raced;
      }
      this.key = readFileSync(path);
    }
    if (this.key.length !== 32) throw new Error(`${path} is not a 32-byte key`);
    return this.key;
  }

  /**
   * 32 bytes that only this key gives for `label` (HMAC-SHA256): what a server with the same key derives
   * again, such as a paid pass's code after its database was restored from a backup older than the sale.
   */
  derive(label: string): Buffer {
    return createHmac("sha256", this.loadKey()).update(`derive:${label}`).digest();
  }

  seal(plaintext: string, label: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.loadKey(), iv);
    cipher.setAAD(Buffer.from(label));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")}`;
  }

  /** The plaintext, or null when it was sealed under another key (another data directory) or altered. */
  open(sealed: string, label: string): string | null {
    if (!sealed.startsWith(`${VERSION}:`)) return null;
    const bytes = Buffer.from(sealed.slice(VERSION.length + 1), "base64");
    if (bytes.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.loadKey(), bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(label));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}
