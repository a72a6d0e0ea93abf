import { mkdirSync, renameSync, writeFileSync, existsSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { badRequest } from "../../lib/errors.ts";
import { randomToken } from "../../lib/tokens.ts";

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

/** Images the admin uploads, stored under the data dir by a name derived from their content. */
export class UploadService {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, "uploads");
  }

  /**
   * Stores the image and returns its public URL. Written to a temp file and renamed into place, so a
   * failed upload never leaves a half-written file or touches the image already in use.
   */
  async storeImage(file: Blob): Promise<string> {
    if (file.size === 0) throw badRequest("The file is empty");
    if (file.size > MAX_UPLOAD_BYTES) throw badRequest(`The image must be ${MAX_UPLOAD_BYTES / 1024 / 1024} MB or smaller`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const kind = sniffImage(bytes);
    if (!kind) throw badRequest("Please upload an image file (JPEG, PNG, GIF, etc.).");
    const name = `${new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32)}.${kind.ext}`;
    mkdirSync(this.dir, { recursive: true });
    const target = join(this.dir, name);
    if (!existsSync(target)) {
      const temp = join(this.dir, `.${randomToken(8)}.tmp`);
      try {
        writeFileSync(temp, bytes);
        renameSync(temp, target);
      } finally {
        if (existsSync(temp)) unlinkSync(temp);
      }
    }
    return UPLOADS_URL_PREFIX + name;
  }

  /** The stored file for a public name, or null for anything that is not one of ours. */
  find(name: string): { path: string; type: string } | null {
    if (!UPLOAD_NAME.test(name)) return null;
    const path = join(this.dir, name);
    if (!existsSync(path)) return null;
    return { path, type: TYPES[name.slice(name.lastIndexOf(".") + 1)]! };
  }
}
