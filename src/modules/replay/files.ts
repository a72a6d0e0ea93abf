import { mkdirSync, statfsSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * Where recordings' files live: the data directory, or an S3-compatible bucket (what a cluster needs, as
 * every instance must serve the replay). Keys are `<recording dir>/<file name>`.
 */
export interface RecordingFiles {
  /** Said in the log and the panel: a directory, or s3://bucket/prefix. */
  readonly where: string;
  write(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * A file as a Response body (its type and caching in `headers`); null when it is known not to be there. On
   * disk the server opens it as it sends it, and a file gone by then is answered 404 (app.ts).
   */
  response(key: string, headers: Record<string, string>): Promise<Response | null>;
  /** Bytes `from` to `to` (exclusive) of a file. */
  read(key: string, from?: number, to?: number): Promise<Uint8Array>;
  size(key: string): Promise<number>;
  /** Removes every file of one recording. */
  removeDir(dir: string): Promise<void>;
  /** Free bytes where they are written (null where that cannot be told: a bucket). */
  freeBytes(): number | null;
}

/** Files under DATA_DIR/recordings, each flushed to disk before its row says it exists. */
export class DiskRecordingFiles implements RecordingFiles {
  constructor(readonly where: string) {}

  async write(key: string, bytes: Uint8Array): Promise<void> {
    const path = join(this.where, key);
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, "w");
    try {
      await handle.writeFile(bytes);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  async response(key: string, headers: Record<string, string>): Promise<Response | null> {
    // No stat first: the server opens the file as it sends it, and one deleted by hand is a 404 there (app.ts).
    return new Response(Bun.file(join(this.where, key)), { headers });
  }

  async read(key: string, from = 0, to?: number): Promise<Uint8Array> {
    const file = Bun.file(join(this.where, key));
    return new Uint8Array(await (to === undefined ? file.slice(from) : file.slice(from, to)).arrayBuffer());
  }

  async size(key: string): Promise<number> {
    return Bun.file(join(this.where, key)).size;
  }

  async removeDir(dir: string): Promise<void> {
    await rm(join(this.where, dir), { recursive: true, force: true });
  }

  freeBytes(): number | null {
    try {
      mkdirSync(this.where, { recursive: true });
      const s = statfsSync(this.where);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return null;
    }
  }
}

export interface S3Settings {
  /** s3://bucket/prefix */
  url: string;
  endpoint: string | null;
  region: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
}

/** Files in an S3-compatible bucket through Bun's built-in S3 client; a write is whole once the PUT is answered. */
export class S3RecordingFiles implements RecordingFiles {
  readonly where: string;
  private readonly client: Bun.S3Client;
  private readonly prefix: string;

  constructor(settings: S3Settings) {
    const url = new URL(settings.url);
    const bucket = url.hostname;
    this.prefix = url.pathname.replace(/^\/+/, "").replace(/\/*$/, "/").replace(/^\/$/, "");
    this.where = `s3://${bucket}/${this.prefix}`;
    this.client = new Bun.S3Client({
      bucket,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.region ? { region: settings.region } : {}),
      ...(settings.accessKeyId ? { accessKeyId: settings.accessKeyId } : {}),
      ...(settings.secretAccessKey ? { secretAccessKey: settings.secretAccessKey } : {}),
    });
  }

  async write(key: string, bytes: Uint8Array): Promise<void> {
    await this.client.write(this.prefix + key, bytes);
  }

  async response(key: string, headers: Record<string, string>): Promise<Response | null> {
    const file = this.client.file(this.prefix + key);
    let size: number;
    try {
      size = (await file.stat()).size;
    } catch {
      return null;
    }
    return new Response(file.stream(), { headers: { ...headers, "content-length": String(size) } });
  }

  async read(key: string, from = 0, to?: number): Promise<Uint8Array> {
    const file = this.client.file(this.prefix + key);
    return new Uint8Array(await (to === undefined ? file.slice(from) : file.slice(from, to)).arrayBuffer());
  }

  async size(key: string): Promise<number> {
    return (await this.client.file(this.prefix + key).stat()).size;
  }

  async removeDir(dir: string): Promise<void> {
    for (;;) {
      const page = await this.client.list({ prefix: `${this.prefix}${dir}/`, maxKeys: 1000 });
      const keys = (page.contents ?? []).map((c) => c.key);
      for (const key of keys) await this.client.delete(key);
      if (!page.isTruncated || keys.length === 0) return;
    }
  }

  freeBytes(): number | null {
    return null;
  }
}
