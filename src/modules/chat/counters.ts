import type { Store } from "../../db/store.ts";
import type { ServerEvent } from "../../contracts/chat.ts";

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

  constructor(private readonly store: Store) {}

  /** Reads the kept heart total and takes the fake viewer setting, at start. */
  async load(fakeViewers: { enabled: boolean; target: number }): Promise<void> {
    this.hearts = (await this.store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))?.value ?? 0;
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

  /** What changed since the last call (nothing, or hearts / viewer_count and then stats); saves a changed heart total. */
  changes(realViewers: number): ServerEvent[] {
    const hearts = this.hearts;
    const viewers = realViewers + this.fake.current;
    const heartsChanged = hearts !== this.announced.hearts;
    const viewersChanged = viewers !== this.announced.viewers;
    if (!heartsChanged && !viewersChanged) return [];
    this.announced = { hearts, viewers };
    const events: ServerEvent[] = [];
    if (heartsChanged) {
      // Kept in the background; a failed save is retried with the next change and at shutdown.
      this.save().catch(() => {});
      events.push({ type: "hearts", count: hearts });
    }
    if (viewersChanged) events.push({ type: "viewer_count", count: viewers });
    events.push({ type: "stats", stats: { heartCount: hearts, viewerCount: viewers } });
    return events;
  }

  async save(): Promise<void> {
    await this.store.run("INSERT INTO event_counters (name, value) VALUES ('hearts', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", this.hearts);
  }
}
