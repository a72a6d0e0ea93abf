import { SESSION_KEYS, readSession, removeSession, writeSession } from "@/lib/storage";

/**
 * A page can stay open across an upgrade of the server (a phone keeps a tab for days). The new build no
 * longer has the old one's split-off files, and its live events may have changed. Each build names
 * itself in index.html (`<meta name="dreadcast-build">`, written by the build); the page compares that
 * name with the one the server serves now:
 * - a file of the page's own build that cannot be loaded any more: the page reloads at once (once per
 *   new build, so a file that is really missing cannot make it reload for ever), and says why after;
 * - the chat reconnecting to an upgraded server, or the tab coming back after a while: a bar offers to
 *   reload (the stream and what is typed stay until the viewer chooses).
 */

const BUILD_META = /<meta\s+name=["']dreadcast-build["']\s+content=["']([\w-]{1,64})["']/i;

/** The build named in an index.html, or null. */
export function buildNamedIn(html: string): string | null {
  return BUILD_META.exec(html)?.[1] ?? null;
}

/** The build this page was loaded from; null where the page was not built (the development server). */
export function pageBuild(doc: Pick<Document, "querySelector"> = document): string | null {
  return doc.querySelector<HTMLMetaElement>('meta[name="dreadcast-build"]')?.content || null;
}

/** What the page needs from the browser; tests pass their own. */
export interface VersionEnvironment {
  pageBuild: string | null;
  /** The server's index.html as it would be loaded now, or null when the server cannot be reached. */
  fetchIndex: () => Promise<string | null>;
  reload: () => void;
  now: () => number;
}

function browserEnvironment(): VersionEnvironment {
  return {
    pageBuild: typeof document === "undefined" ? null : pageBuild(),
    fetchIndex: async () => {
      try {
        const response = await fetch("/", { cache: "no-store", credentials: "same-origin", headers: { accept: "text/html" } });
        return response.ok ? await response.text() : null;
      } catch {
        return null;
      }
    },
    reload: () => window.location.reload(),
    now: () => Date.now(),
  };
}

/** A flag the page's code sets and a component follows (`useSyncExternalStore`); it changes once a visit at most. */
export class Flag {
  #value = false;
  readonly #listeners = new Set<() => void>();

  get value(): boolean {
    return this.#value;
  }

  set value(value: boolean) {
    if (value === this.#value) return;
    this.#value = value;
    for (const listener of this.#listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
}

/** True once the server is known to serve a newer build than this page's: the update bar shows. */
export const updateReady = new Flag();

/** A check is not repeated within this long. */
export const CHECK_INTERVAL_MS = 30_000;
/** A tab hidden at least this long is checked when it comes back. */
export const HIDDEN_CHECK_AFTER_MS = 5 * 60_000;

export class AppVersion {
  private lastCheck = -Infinity;
  private checking: Promise<string | null> | null = null;

  constructor(private readonly env: VersionEnvironment = browserEnvironment()) {}

  /** The build the server serves now, or null when it cannot tell (unreachable, not built). */
  servedBuild(): Promise<string | null> {
    this.checking ??= this.env
      .fetchIndex()
      .then((html) => (html === null ? null : buildNamedIn(html)))
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  /** Whether the server serves another build than this page's; checked at most once per interval unless forced. */
  async check(force = false): Promise<boolean> {
    if (updateReady.value) return true;
    const page = this.env.pageBuild;
    if (page === null) return false;
    const now = this.env.now();
    if (!force && now - this.lastCheck < CHECK_INTERVAL_MS) return false;
    this.lastCheck = now;
    const served = await this.servedBuild();
    if (served === null || served === page) return false;
    updateReady.value = true;
    return true;
  }

  /**
   * Loads a split-off part of the page. When it cannot be loaded because the server was upgraded since
   * the page was, the page reloads (the promise then never settles); otherwise the error stands.
   */
  async load<T>(importer: () => Promise<T>): Promise<T> {
    try {
      return await importer();
    } catch (error) {
      const page = this.env.pageBuild;
      const served = page === null ? null : await this.servedBuild();
      if (served === null || served === page || readSession(SESSION_KEYS.reloadedForBuild) === served) throw error;
      writeSession(SESSION_KEYS.reloadedForBuild, served);
      this.env.reload();
      return new Promise<T>(() => {});
    }
  }

  /** True once, on the first load after a reload `load` made for this page's build: the page then says why. */
  reloadedForUpdate(): boolean {
    const build = readSession(SESSION_KEYS.reloadedForBuild);
    if (build === null || build !== this.env.pageBuild) return false;
    removeSession(SESSION_KEYS.reloadedForBuild);
    return true;
  }
}

export const appVersion = new AppVersion();

/** A split-off part of the page, reloading the page instead of failing when the server was upgraded. */
export function importFresh<T>(importer: () => Promise<T>): Promise<T> {
  return appVersion.load(importer);
}
