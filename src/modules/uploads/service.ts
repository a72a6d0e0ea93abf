import { existsSync } from "node:fs";
import { join } from "node:path";
import { badRequest } from "../../lib/errors.ts";
import type { Store } from "../../db/store.ts";

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOADS_URL_PREFIX = "/uploads/";

export type ImageKind = { ext: "jpg" | "png" | "gif" | "webp"; type: string };

/** Recognises an image by its leading bytes, never by its name or the client's content type. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (bytes.length >= 3 && starts(0xff, 0xd8, 0xff)) return { ext: "jpg", type: "image/jpeg" };
  if (bytes.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { ext: "png", type: "image/png" };
  if (bytes.length >= 6 && (starts(0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || starts(0x47, 0x49, 0x46, 0x38, 0x39, 0x61))) return { ext: "gif", type: "image/gif" };
  if (bytes.length >= 12 && starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) {
    return { ext: "webp", type: "image/webp" };
  }
  return null;
}

const UPLOAD_NAME = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/;
const TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp" };

/** An uploaded image as it is served. */
export type StoredImage = { type: string } & ({ bytes: Uint8Array; path?: undefined } | { path: string; bytes?: undefined });

/** Images kept in memory once read: they never change (their names are their content), and they are few. */
const CACHE_LIMIT = 32;

/**
 * Images the admin uploads, kept in the database under a name derived from their content, so every
 * server on the database serves them. Files in DATA_DIR/uploads from before are served too.
 */
export class UploadService {
  readonly dir: string;
  private readonly cache = new Map<string, StoredImage>();

  constructor(
    private readonly store: Store,
    dataDir: string,
  ) {
    this.dir = join(dataDir, "uploads");
  }

  /** Stores the image (in one statement: a failed upload leaves nothing) and returns its public URL. */
  async storeImage(file: Blob): Promise<string> {
    if (file.size === 0) throw badRequest("The file is empty");
    if (file.size > MAX_UPLOAD_BYTES) throw badRequest(`The image must be ${MAX_UPLOAD_BYTES / 1024 / 1024} MB or smaller`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const kind = sniffImage(bytes);
    if (!kind) throw badRequest("Please upload an image file (JPEG, PNG, GIF, etc.).");
    const name = `${new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32)}.${kind.ext}`;
    await this.store.run("INSERT INTO uploads (name, content_type, bytes, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING", name, kind.type, bytes, Date.now());
    return UPLOADS_URL_PREFIX + name;
  }

  /** The image for a public name, or null for anything that is not one of ours. */
  async find(name: string): Promise<StoredImage | null> {
    if (!UPLOAD_NAME.test(name)) return null;
    const cached = this.cache.get(name);
    if (cached) return cached;
    const row = await this.store.get<{ content_type: string; bytes: Uint8Array }>("SELECT content_type, bytes FROM uploads WHERE name = ?", name);
    let found: StoredImage | null = row ? { type: row.content_type, bytes: new Uint8Array(row.bytes) } : null;
    if (!found) {
      const path = join(this.dir, name);
      if (existsSync(path)) found = { type: TYPES[name.slice(name.lastIndexOf(".") + 1)]!, path };
    }
    if (found) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(name, found);
    }
    return found;
  }
}
