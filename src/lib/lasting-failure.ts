import type { Logger } from "./logger.ts";

export interface LastingFailureOptions {
  /**
   * For work that is never told it succeeded (requests answered 503): a failure this long after the last
   * one counts as a new spell, said again with how many failures were not said in between.
   */
  quietMs?: number;
  now?: () => number;
}

/** The first line of an error's message, for a log line. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!;
}

/**
 * A failure that lasts — the database gone, a worker's every tick failing — said once when it starts and
 * once when it is over, rather than on every attempt in between.
 */
export class LastingFailure {
  private since: number | null = null;
  private last = 0;
  private unsaid = 0;
  private readonly now: () => number;

  constructor(
    private readonly log: Logger,
    /** What is wrong, e.g. "e-mail queue not read": the warning's start. */
    private readonly what: string,
    /** What it is once over, e.g. "e-mail queue read again": the line said then. */
    private readonly again: string,
    private readonly options: LastingFailureOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** True between the first failure and the next success. */
  get failing(): boolean {
    return this.since !== null;
  }

  /** An attempt failed: said if it is the first of a spell, counted otherwise. */
  failed(error: unknown): void {
    const now = this.now();
    const quiet = this.options.quietMs;
    if (this.since !== null && !(quiet !== undefined && now - this.last >= quiet)) {
      this.last = now;
      this.unsaid++;
      return;
    }
    const repeats = this.unsaid > 0 ? ` (${this.unsaid} more since it was last said)` : "";
    this.since ??= now;
    this.last = now;
    this.unsaid = 0;
    this.log.warn(`${this.what}: ${describeError(error)}${repeats}`);
  }

  /** An attempt succeeded: ends the spell, saying so if there was one. */
  succeeded(): void {
    if (this.since === null) return;
    const seconds = Math.max(1, Math.round((this.now() - this.since) / 1000));
    this.since = null;
    this.unsaid = 0;
    this.log.info(`${this.again} after ${seconds} s`);
  }
}
