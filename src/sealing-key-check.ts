import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import type { Store } from "./db/store.ts";
import { SECRET_KEY_FILE } from "./lib/secret-box.ts";

/**
 * The warning a start owes when the database holds secrets sealed under a key that is not here (a data
 * directory restored or moved without `secrets.key`): otherwise a new key would be made unseen, and the
 * team's authenticator codes and the stream key would simply stop working. Null when all is well.
 */
export async function missingSealingKey(config: Config, store: Store): Promise<string | null> {
  if (config.secretKey) return null;
  const keyFile = join(config.dataDir, SECRET_KEY_FILE);
  if (existsSync(keyFile)) return null;
  const factors = await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM admins WHERE totp_secret IS NOT NULL");
  const streamKey = await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM ingest_key WHERE sealed IS NOT NULL");
  const members = Number(factors?.n ?? 0);
  const sealed = members + Number(streamKey?.n ?? 0);
  if (sealed === 0) return null;
  const what = [members ? `${members} member(s)' authenticator secrets` : "", Number(streamKey?.n ?? 0) ? "the stream key" : ""].filter(Boolean).join(" and ");
  return (
    `warning: ${keyFile} is missing, yet the database holds ${what} sealed under a key: they cannot be read ` +
    `(authenticator codes are refused) until the key is back — restore it with dreadcast restore, copy yours into place, or start with --secret-key`
  );
}
