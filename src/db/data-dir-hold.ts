import { Database } from "bun:sqlite";
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LOCK_FILE = "serve.lock";
const PID_FILE = "serve.pid";

/** Another serving process holds the data directory; it names the directory and that process. */
export class DataDirHeldError extends Error {}

/** The data directory cannot be made or written (a read-only disk, another user's folder). */
export class DataDirUnwritableError extends Error {}

/** Makes `dataDir` (0700) if it is missing and checks that this process may write in it. */
export function requireWritableDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why = code === "EROFS" ? "a read-only file system" : code === "EACCES" || code === "EPERM" ? "permission denied" : code === "ENOTDIR" ? "not a directory" : message;
    throw new DataDirUnwritableError(`the data directory ${dataDir} cannot be written (${why}); give the server one it may write to with --data-dir`);
  }
}

export interface DataDirHold {
  release(): void;
}

/**
 * Makes this process the one server of `dataDir`, before anything in it is opened for writing.
 *
 * The hold is an exclusive SQLite transaction on a lock file of its own (not the event database, which
 * `backup` and `admin` still open beside the server). It is a POSIX lock, so the kernel drops it with
 * the process on any exit, `kill -9` included: there is never a stale lock to clean up.
 */
export function holdDataDir(dataDir: string): DataDirHold {
  requireWritableDataDir(dataDir);
  const lock = new Database(join(dataDir, LOCK_FILE), { create: true });
  lock.run("PRAGMA busy_timeout = 0");
  try {
    lock.run("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
    throw new DataDirHeldError(`the data directory ${dataDir} is in use by another dreadcast (${holderOf(dataDir)}); stop it or pick another --data-dir`);
  }
  writeFileSync(join(dataDir, PID_FILE), `${process.pid}\n`);
  return {
    release() {
      lock.run("ROLLBACK");
      lock.close();
    },
  };
}

function holderOf(dataDir: string): string {
  try {
    const pid = readFileSync(join(dataDir, PID_FILE), "utf8").trim();
    return /^\d+$/.test(pid) ? `pid ${pid}` : "pid unknown";
  } catch {
    return "pid unknown";
  }
}
