import type { Store } from "../../db/store.ts";
import type { ServerEvent } from "../../contracts/chat.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import { silentLogger, type Logger } from "../../lib/logger.ts";

export const FAKE_VIEWERS_STEP = 100;
export const MAX_FAKE_VIEWERS = 5000;

/**
 * The event's heart total (kept in the database across restarts) and the fake viewers, which move toward the
 * admin's target a step at a time. Reports what changed since it last reported, so that a burst of
 * clicks becomes one frame per tick.
 */
export class LiveCounters {
  private hearts = 0;
  private readonly fake = { enabled: false, target: 0, current: 0 };
  private announced = { hearts: 0, viewers: 0 };
  /** The total as last kept in the database. */
  private saved = 0;
  /** The save under way, and which one it is: one at a time, so an older total never lands after a newer one. */
  private saving: Promise<void> | null = null;
  private saves = 0;
  private readonly saveFailure: LastingFailure;

  constructor(
    private readonly store: Store,
    log: Logger = silentLogger,
  ) {
    this.saveFailure = new LastingFailure(log, "heart count not saved", "heart count saved again");
  }

  /** Reads the kept heart total and takes the fake viewer setting, at start. */
  async load(fakeViewers: { enabled: boolean; target: number }): Promise<void> {
    this.hearts = (await this.store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))?.value ?? 0;
    this.saved = this.hearts;
    this.applyFakeViewerSettings(fakeViewers.enabled, fakeViewers.target);
    // After a restart the audience is already there: no ramp from zero.
    this.fake.current = this.fake.enabled ? this.fake.target : 0;
    this.announced = { hearts: this.hearts, viewers: this.fake.current };
  }

  addHeart(): void {
    this.hearts++;
  }

  heartCount(): number {
    return this.hearts;
  }

  currentFakeViewers(): number {
    return this.fake.current;
  }

  applyFakeViewerSettings(enabled: boolean, target: number): void {
    this.fake.enabled = enabled;
    this.fake.target = Math.max(0, Math.min(MAX_FAKE_VIEWERS, Math.round(target)));
  }

  /** One step of the fake viewers toward the target (or toward zero when switched off). */
  stepFakeViewers(): void {
    const goal = this.fake.enabled ? this.fake.target : 0;
    const gap = goal - this.fake.current;
    this.fake.current += Math.sign(gap) * Math.min(Math.abs(gap), FAKE_VIEWERS_STEP);
  }

  /** The current counts, for a socket that has just joined. */
  snapshot(realViewers: number): ServerEvent[] {
    const viewers = realViewers + this.fake.current;
    return [
      { type: "hearts", count: this.hearts },
      { type: "viewer_count", count: viewers },
      { type: "stats", stats: { heartCount: this.hearts, viewerCount: viewers } },
    ];
  }

  /** What changed since the last call (nothing, or hearts / viewer_count and then stats). */
  changes(realViewers: number): ServerEvent[] {
    const hearts = this.hearts;
    const viewers = realViewers + this.fake.current;
    const heartsChanged = hearts !== this.announced.hearts;
    const viewersChanged = viewers !== this.announced.viewers;
    if (!heartsChanged && !viewersChanged) return [];
    this.announced = { hearts, viewers };
    const events: ServerEvent[] = [];
    if (heartsChanged) events.push({ type: "hearts", count: hearts });
    if (viewersChanged) events.push({ type: "viewer_count", count: viewers });
    events.push({ type: "stats", stats: { heartCount: hearts, viewerCount: viewers } });
    return events;
  }

  /**
   * On each tick: keeps the heart total in the background if it changed since it was last kept. A save
   * that fails (the database away) is said once and tried again on the next tick until one succeeds.
   */
  keep(): void {
    if (this.saving || this.hearts === this.saved) return;
    void this.save().then(
      () => this.saveFailure.succeeded(),
      (error: unknown) => this.saveFailure.failed(error),
    );
  }

  /** Keeps the current total now (after any save under way); at shutdown. */
  async save(): Promise<void> {
    while (this.saving) await this.saving.catch(() => {});
    const value = this.hearts;
    const turn = ++this.saves;
    this.saving = this.store
      .run("INSERT INTO event_counters (name, value) VALUES ('hearts', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", value)
      .then(() => {
        this.saved = value;
      });
    try {
      await this.saving;
    } finally {
      if (this.saves === turn) this.saving = null;
    }
  }
}
