/** OBS's stream key: random, kept as its SHA-256 (what a publish is checked against) and sealed (what the admin is shown). */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Store } from "../../db/store.ts";
import type { SecretBox } from "../../lib/secret-box.ts";

/** 160 random bits, as 40 hexadecimal characters (easy to paste, nothing OBS or a URL would mangle). */
const KEY_BYTES = 20;
const LABEL = "ingest stream key";

interface KeyRow {
  key_hash: string;
  sealed: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

export class StreamKeyStore {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
  ) {}

  /** The key to show (made on first use); null when it was sealed where this server cannot open it. */
  async current(): Promise<string | null> {
    let row = await this.store.get<KeyRow>("SELECT key_hash, sealed FROM ingest_key WHERE id = 1");
    if (!row) {
      await this.write(false);
      row = (await this.store.get<KeyRow>("SELECT key_hash, sealed FROM ingest_key WHERE id = 1"))!;
    }
    return this.box.open(row.sealed, LABEL);
  }

  /** A new key in place of the old one, which stops working at once. */
  async rotate(): Promise<string> {
    return this.write(true);
  }

  /** Whether `key` is the stream key (compared as hashes, in constant time). */
  async matches(key: string): Promise<boolean> {
    const row = await this.store.get<KeyRow>("SELECT key_hash FROM ingest_key WHERE id = 1");
    if (!row) return false;
    const expected = Buffer.from(row.key_hash, "hex");
    const given = sha256(key);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private async write(replace: boolean): Promise<string> {
    const key = randomBytes(KEY_BYTES).toString("hex");
    await this.store.run(
      `INSERT INTO ingest_key (id, key_hash, sealed, created_at) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO ${replace ? "UPDATE SET key_hash = excluded.key_hash, sealed = excluded.sealed, created_at = excluded.created_at" : "NOTHING"}`,
      sha256(key).toString("hex"),
      this.box.seal(key, LABEL),
      Date.now(),
    );
    return key;
  }
}
