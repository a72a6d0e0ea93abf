import { intervalJob, type SingleJob } from "../../cluster/cluster.ts";
import type { Store } from "../../db/store.ts";
import type { ServerEvent } from "../../contracts/chat.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import { silentLogger, type Logger } from "../../lib/logger.ts";

export const FAKE_VIEWERS_STEP = 100;
export const MAX_FAKE_VIEWERS = 5000;
export const FAKE_VIEWERS_TICK_MS = 2000;

/**
 * The event's heart total (kept in the database across restarts, and added to by every instance of a cluster)
 * and the fake viewers, which move toward the admin's target a step at a time. Reports what changed since it
 * last reported, so that a burst of clicks becomes one frame per tick.
 */
export class LiveCounters {
  /** The event's total as last read or written in the database (with every instance's hearts in it). */
  private total = 0;
  /** Hearts counted here and not yet added to the database. */
  private pending = 0;
  private readonly fake = { enabled: false, target: 0, current: 0 };
  /** This instance steps the fake viewers (alone, always; in a cluster, while it holds that job). */
  private stepsFakeViewers = false;
  private announced = { hearts: 0, viewers: 0 };
  /** The save under way: one at a time, so no heart is added twice. */
  private saving: Promise<void> | null = null;
  private readonly saveFailure: LastingFailure;
  /** Told the new total after each save (the other instances of a cluster take it from there). */
  onSaved: (total: number) => void = () => {};

  constructor(
    private readonly store: Store,
    log: Logger = silentLogger,
  ) {
    this.saveFailure = new LastingFailure(log, "heart count not saved", "heart count saved again");
  }

  /** Reads the kept heart total and takes the fake viewer setting, at start. */
  async load(fakeViewers: { enabled: boolean; target: number }): Promise<void> {
    this.total = await this.readTotal();
    this.applyFakeViewerSettings(fakeViewers.enabled, fakeViewers.target);
    // After a restart the audience is already there: no ramp from zero.
    this.fake.current = this.fake.enabled ? this.fake.target : 0;
    this.announced = { hearts: this.total, viewers: this.fake.current };
  }

  private async readTotal(): Promise<number> {
    return (await this.store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))?.value ?? 0;
  }

  /** Reads the total again (after a gap in what the other instances said). */
  async reload(): Promise<void> {
    this.seeTotal(await this.readTotal());
  }

  /** Another instance added its hearts: the total it read back. Totals only grow, so an older one changes nothing. */
  seeTotal(total: number): void {
    if (total > this.total) this.total = total;
  }

  addHeart(): void {
    this.pending++;
  }

  heartCount(): number {
    return this.total + this.pending;
  }

  currentFakeViewers(): number {
    return this.fake.current;
  }

  applyFakeViewerSettings(enabled: boolean, target: number): void {
    this.fake.enabled = enabled;
    this.fake.target = Math.max(0, Math.min(MAX_FAKE_VIEWERS, Math.round(target)));
  }

  /** One step of the fake viewers toward the target (or toward zero when switched off). */
  private stepFakeViewers(): void {
    const goal = this.fake.enabled ? this.fake.target : 0;
    const gap = goal - this.fake.current;
    this.fake.current += Math.sign(gap) * Math.min(Math.abs(gap), FAKE_VIEWERS_STEP);
  }

  /**
   * The fake viewers' steps, one every tick: a job for one instance of a cluster at a time. While this
   * instance holds it, the others follow where it says they are.
   */
  fakeViewersJob(): SingleJob {
    return intervalJob(() => this.stepFakeViewers(), FAKE_VIEWERS_TICK_MS, { owned: (owned) => (this.stepsFakeViewers = owned) });
  }

  /** Where the fake viewers are, for the other instances: told only by the instance that steps them. */
  fakeViewersToTell(): number | null {
    return this.stepsFakeViewers ? this.fake.current : null;
  }

  /** In a cluster, the instance that runs the fake viewers says where they are (heard only by the others). */
  followFakeViewers(current: number): void {
    if (this.stepsFakeViewers) return;
    this.fake.current = Math.max(0, Math.min(MAX_FAKE_VIEWERS, Math.round(current)));
  }

  /** The current counts, for a socket that has just joined. */
  snapshot(realViewers: number): ServerEvent[] {
    const viewers = realViewers + this.fake.current;
    const hearts = this.heartCount();
    return [
      { type: "hearts", count: hearts },
      { type: "viewer_count", count: viewers },
      { type: "stats", stats: { heartCount: hearts, viewerCount: viewers } },
    ];
  }

  /** What changed since the last call (nothing, or hearts / viewer_count and then stats). */
  changes(realViewers: number): ServerEvent[] {
    const hearts = this.heartCount();
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
   * On each tick: adds the hearts counted since the last save to the database in the background. A save
   * that fails (the database away) is said once and tried again on the next tick until one succeeds.
   */
  keep(): void {
    if (this.saving || this.pending === 0) return;
    void this.save().then(
      () => this.saveFailure.succeeded(),
      (error: unknown) => this.saveFailure.failed(error),
    );
  }

  /**
   * Adds the hearts counted here to the event's total now (after any save under way). The database adds
   * them to what is there, so instances sharing it never overwrite each other's hearts.
   */
  async save(): Promise<void> {
    while (this.saving) await this.saving.catch(() => {});
    const delta = this.pending;
    if (delta === 0) return;
    this.saving = this.store
      .get<{ value: number }>(
        "INSERT INTO event_counters (name, value) VALUES ('hearts', ?) ON CONFLICT (name) DO UPDATE SET value = event_counters.value + excluded.value RETURNING value",
        delta,
      )
      .then((row) => {
        this.pending -= delta;
        this.seeTotal(row!.value);
        this.onSaved(row!.value);
      });
    try {
      await this.saving;
    } finally {
      this.saving = null;
    }
  }
}
