import type { RecordingFiles } from "./files.ts";

/** Keys asked for once and not kept, remembered so that a second ask can be told from a first. */
const MAX_ASKED_ONCE = 4096;
/** No one file takes more than this share of the bound. */
const LARGEST_SHARE = 8;

export interface FileCacheFigures {
  hits: number;
  misses: number;
  files: number;
  bytes: number;
  maxBytes: number;
}

/**
 * The replay's files most asked for, kept in memory (`--replay-cache-mb`) in front of where they live.
 *
 * Every pass holder watching the replay asks for a segment or two a few seconds, and most watch the same
 * stretches (the start, the moments people talk about). A file sent from memory costs the server about
 * half of one sent from its file (opened, sent with sendfile and closed per request), and one from a
 * bucket saves a request to the bucket each time. A file is kept from its second ask (one read from where
 * it lives, then none), so a stretch one viewer alone watches never pushes out what many do; the least
 * recently asked files go first once the bound is reached. Files never change once written; a recording
 * deleted from the panel leaves the memory with its files.
 */
export class CachedRecordingFiles implements RecordingFiles {
  /** In order of last use, the oldest first. */
  private readonly kept = new Map<string, Blob>();
  private keptBytes = 0;
  private readonly askedOnce = new Set<string>();
  private readonly loading = new Set<string>();
  /** Moves with every write and removal: a read begun before one is not kept. */
  private epoch = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly inner: RecordingFiles,
    private maxBytes: number,
  ) {}

  get where(): string {
    return this.inner.where;
  }

  write(key: string, bytes: Uint8Array): Promise<void> {
    // Called for every segment recorded: the one key only, not a walk over everything kept.
    this.epoch++;
    this.drop(key);
    this.askedOnce.delete(key);
    return this.inner.write(key, bytes);
  }

  response(key: string, headers: Record<string, string>): Promise<Response | null> {
    const blob = this.kept.get(key);
    if (blob) {
      this.hits++;
      this.kept.delete(key);
      this.kept.set(key, blob);
      return Promise.resolve(new Response(blob, { headers }));
    }
    this.misses++;
    this.asked(key);
    return this.inner.response(key, headers);
  }

  read(key: string, from?: number, to?: number): Promise<Uint8Array> {
    return this.inner.read(key, from, to);
  }

  size(key: string): Promise<number> {
    const blob = this.kept.get(key);
    return blob ? Promise.resolve(blob.size) : this.inner.size(key);
  }

  removeDir(dir: string): Promise<void> {
    this.forget((key) => key.startsWith(`${dir}/`));
    return this.inner.removeDir(dir);
  }

  freeBytes(): number | null {
    return this.inner.freeBytes();
  }

  /** A new bound (0 empties the memory and keeps nothing). */
  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  figures(): FileCacheFigures {
    return { hits: this.hits, misses: this.misses, files: this.kept.size, bytes: this.keptBytes, maxBytes: this.maxBytes };
  }

  private asked(key: string): void {
    if (this.maxBytes === 0 || this.loading.has(key)) return;
    if (!this.askedOnce.delete(key)) {
      this.askedOnce.add(key);
      if (this.askedOnce.size > MAX_ASKED_ONCE) this.askedOnce.delete(this.askedOnce.values().next().value!);
      return;
    }
    const epoch = this.epoch;
    this.loading.add(key);
    // Read once, beside the answer being sent; a file that cannot be read is simply not kept.
    this.inner
      .read(key)
      .then(
        (bytes) => {
          if (epoch === this.epoch && bytes.length <= this.maxBytes / LARGEST_SHARE) this.keep(key, new Blob([bytes as Uint8Array<ArrayBuffer>]));
        },
        () => undefined,
      )
      .finally(() => this.loading.delete(key));
  }

  private keep(key: string, blob: Blob): void {
    if (this.kept.has(key)) return;
    this.kept.set(key, blob);
    this.keptBytes += blob.size;
    this.evict();
  }

  private evict(): void {
    for (const key of this.kept.keys()) {
      if (this.keptBytes <= this.maxBytes) return;
      this.drop(key);
    }
  }

  private drop(key: string): void {
    const blob = this.kept.get(key);
    if (!blob) return;
    this.kept.delete(key);
    this.keptBytes -= blob.size;
  }

  private forget(matches: (key: string) => boolean): void {
    this.epoch++;
    for (const key of this.kept.keys()) if (matches(key)) this.drop(key);
    for (const key of this.askedOnce) if (matches(key)) this.askedOnce.delete(key);
  }
}
