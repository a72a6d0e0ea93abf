import { Decrypter, Encrypter } from "age-encryption";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, statSync } from "node:fs";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as tar from "tar-stream";

/**
 * One backup archive: a tar (tar-stream) of the files a restore needs, encrypted as it is written with
 * age under a passphrase (age-encryption's scrypt recipient), both streamed, so a recording of gigabytes
 * is never held in memory. The first entry says what the archive is (so a restore can refuse an archive
 * it cannot read before unpacking anything); the last lists every file with its size and SHA-256.
 */

export const HEAD_ENTRY = "dreadcast-backup.json";
export const MANIFEST_ENTRY = "manifest.json";
export const ARCHIVE_FORMAT = 1;

export interface ArchiveHead {
  format: "dreadcast-backup";
  formatVersion: number;
  /** The dreadcast that wrote it. */
  version: string;
  /** The database's schema (SQLite), or the schema the writing build knows (PostgreSQL, dumped apart). */
  schema: number;
  engine: "sqlite" | "postgres";
  createdAt: string;
  /** "included", or "operator": kept apart by the operator (--without-key, --secret-key), to be brought back. */
  key: "included" | "operator" | "none yet";
  /** "files" (in the archive) or the bucket they are in, s3://bucket/prefix. */
  recordings: string;
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface ArchiveManifest extends ArchiveHead {
  files: ManifestFile[];
}

/** A file to put in the archive: its path in it and where it is read from now. */
export interface ArchiveSource {
  path: string;
  from: string;
}

/** Something is wrong with the archive or its passphrase: one line for the operator. */
export class ArchiveError extends Error {}

/** What is used here of tar-stream's streamx streams (its published types describe Node's, which differ). */
interface Sink {
  write(chunk: Uint8Array): boolean;
  end(): void;
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  readonly destroyed: boolean;
  destroy(error?: Error): void;
}

/** Resolves when `sink` can take more, or has closed. */
function drained(sink: Sink): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      sink.off("drain", done);
      sink.off("close", done);
      resolve();
    };
    sink.once("drain", done);
    sink.once("close", done);
  });
}

/** A web ReadableStream of an async iterable, pulled as it is read (so the iterable's pace is the reader's). */
function streamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

const SAFE_PATH = /^(dreadcast\.db|secrets\.key|uploads\/[0-9a-f]{32}\.(jpg|png|gif|webp)|recordings\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*)$/;

/** Whether a path may be in an archive (and so be written under the data directory on restore). */
export function isArchivePath(path: string): boolean {
  return SAFE_PATH.test(path) && !path.split("/").some((part) => part === "." || part === "..");
}

async function addFile(pack: tar.Pack, source: ArchiveSource): Promise<ManifestFile> {
  // The size when it is read: a file still being written (the newest segment) is taken as it was then.
  const size = statSync(source.from).size;
  const hash = createHash("sha256");
  let entry!: Sink;
  const done = new Promise<void>((resolve, reject) => {
    entry = pack.entry({ name: source.path, size, mode: 0o600, mtime: new Date() }, (error) => (error ? reject(error) : resolve())) as unknown as Sink;
  });
  if (size > 0) {
    for await (const chunk of createReadStream(source.from, { start: 0, end: size - 1 })) {
      hash.update(chunk as Buffer);
      if (!entry.write(chunk as Buffer)) await drained(entry);
    }
  }
  entry.end();
  await done;
  return { path: source.path, size, sha256: hash.digest("hex") };
}

function addJson(pack: tar.Pack, name: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => pack.entry({ name, mode: 0o600 }, JSON.stringify(value, null, 2) + "\n", (error) => (error ? reject(error) : resolve())));
}

/** Writes the archive of `sources` to `file` (made 0600, never over an existing file); returns its manifest. */
export async function writeArchive(file: string, passphrase: string, head: ArchiveHead, sources: ArchiveSource[]): Promise<ArchiveManifest> {
  const pack = tar.pack();
  const files: ManifestFile[] = [];
  const filling = (async () => {
    try {
      await addJson(pack, HEAD_ENTRY, head);
      for (const source of sources) files.push(await addFile(pack, source));
      await addJson(pack, MANIFEST_ENTRY, { ...head, files });
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
      throw error;
    }
  })();
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase);
  const encrypted = await encrypter.encrypt(streamOf(pack as unknown as AsyncIterable<Uint8Array>));
  await Promise.all([pipeline(Readable.fromWeb(encrypted as never), createWriteStream(file, { flags: "wx", mode: 0o600 })), filling]);
  return { ...head, files };
}

/** What reading an archive found: its manifest, checked against every file that was in it. */
export interface ReadArchive {
  manifest: ArchiveManifest;
}

function parseJson<T>(bytes: Buffer, what: string): T {
  try {
    return JSON.parse(bytes.toString("utf8")) as T;
  } catch {
    throw new ArchiveError(`the archive's ${what} cannot be read; it is not a dreadcast backup`);
  }
}

async function readAll(entry: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += chunk.length;
    if (size > limit) throw new ArchiveError("the archive's manifest is too large; it is not a dreadcast backup");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Decrypts and unpacks `file` into `into` (an empty directory), checking it as it goes: `checkHead` sees
 * the first entry before anything is written, and every file's size and SHA-256 must match the manifest
 * at the end, with nothing missing and nothing extra. Throws ArchiveError, in one line, on any fault.
 */
export async function readArchive(file: string, passphrase: string, into: string, checkHead: (head: ArchiveHead) => void): Promise<ReadArchive> {
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await decrypter.decrypt(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>);
  } catch (error) {
    const message = (error as Error).message;
    if (/no identity matched/.test(message)) throw new ArchiveError(`${file}: wrong passphrase (it does not open this archive)`);
    throw new ArchiveError(`${file} is not a dreadcast backup (not an age-encrypted archive: ${message})`);
  }
  const extract = tar.extract();
  const sink = extract as unknown as Sink;
  const feeding = (async () => {
    try {
      for await (const chunk of plain) {
        // Refused part-way: stop decrypting what no one will read.
        if (sink.destroyed) break;
        if (!sink.write(chunk)) await drained(sink);
      }
      if (!sink.destroyed) sink.end();
    } catch (error) {
      sink.destroy(error as Error);
    }
  })();

  let head: ArchiveHead | null = null;
  let manifest: ArchiveManifest | null = null;
  const found = new Map<string, ManifestFile>();
  let refused: unknown = null;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (manifest) throw new ArchiveError(`${file} has entries after its manifest; it is not a dreadcast backup`);
      if (!head) {
        if (name !== HEAD_ENTRY) throw new ArchiveError(`${file} is not a dreadcast backup (it does not start with ${HEAD_ENTRY})`);
        head = parseJson<ArchiveHead>(await readAll(entry as AsyncIterable<Buffer>, 64 * 1024), "description");
        if (head.format !== "dreadcast-backup") throw new ArchiveError(`${file} is not a dreadcast backup`);
        try {
          checkHead(head);
        } catch (error) {
          refused = error;
          throw error;
        }
        continue;
      }
      if (name === MANIFEST_ENTRY) {
        manifest = parseJson<ArchiveManifest>(await readAll(entry as AsyncIterable<Buffer>, 64 * 1024 * 1024), "manifest");
        continue;
      }
      if (entry.header.type !== "file" || !isArchivePath(name) || found.has(name))
        throw new ArchiveError(`${file} holds an entry no backup has (${JSON.stringify(name)}); nothing was restored`);
      const target = join(into, name);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      const hash = createHash("sha256");
      let size = 0;
      const out = createWriteStream(target, { flags: "wx", mode: 0o600 });
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
        if (!out.write(chunk)) await once(out, "drain");
      }
      out.end();
      await once(out, "finish");
      found.set(name, { path: name, size, sha256: hash.digest("hex") });
    }
  } catch (error) {
    if (error instanceof ArchiveError || error === refused) throw error;
    // age's STREAM authenticates every chunk and the last one: a cut or altered archive fails here.
    throw new ArchiveError(`${file} is damaged or cut short (${(error as Error).message}); nothing was restored`);
  } finally {
    if (!sink.destroyed) sink.destroy();
    await feeding;
  }
  if (!head || !manifest) throw new ArchiveError(`${file} is cut short (no manifest at its end); nothing was restored`);
  for (const listed of manifest.files) {
    const got = found.get(listed.path);
    if (!got) throw new ArchiveError(`${file} lacks ${listed.path}, which its manifest lists; nothing was restored`);
    if (got.size !== listed.size || got.sha256 !== listed.sha256) throw new ArchiveError(`${listed.path} in ${file} does not match its checksum; nothing was restored`);
    found.delete(listed.path);
  }
  if (found.size) throw new ArchiveError(`${file} holds ${[...found.keys()][0]}, which its manifest does not list; nothing was restored`);
  return { manifest };
}
