import type { Database } from "bun:sqlite";
import type { LivestreamSettings, LivestreamSettingsBody, PublicLivestreamSettings } from "../../contracts/settings.ts";
import { DEFAULT_THUMBNAIL_URL } from "../../db/migrations.ts";

interface SettingsRow {
  event_title: string;
  thumbnail_url: string;
  embed_url: string;
  donation_goal: number;
  is_active: number;
  start_date: number;
  fake_viewers_enabled: number;
  fake_viewers_target: number;
}

/** The single livestream settings row, the donation total and the viewer count shown to the public. */
export class SettingsService {
  private viewerCountProvider: () => number = () => 0;

  constructor(private readonly db: Database) {}

  get(): LivestreamSettings {
    const row = this.db.query<SettingsRow, []>("SELECT * FROM livestream_settings WHERE id = 1").get()!;
    return {
      eventTitle: row.event_title,
      thumbnailUrl: row.thumbnail_url,
      embedUrl: row.embed_url,
      donationGoal: row.donation_goal,
      isActive: row.is_active === 1,
      startDate: new Date(row.start_date).toISOString(),
      fakeViewersEnabled: row.fake_viewers_enabled === 1,
      fakeViewersTarget: row.fake_viewers_target,
    };
  }

  update(settings: LivestreamSettingsBody): LivestreamSettings {
    this.db
      .query(
        `UPDATE livestream_settings SET event_title = ?, thumbnail_url = ?, embed_url = ?, donation_goal = ?, is_active = ?,
         start_date = ?, updated_at = ? WHERE id = 1`,
      )
      .run(
        settings.eventTitle,
        settings.thumbnailUrl,
        settings.embedUrl,
        settings.donationGoal,
        settings.isActive ? 1 : 0,
        Date.parse(settings.startDate),
        Date.now(),
      );
    return this.get();
  }

  setFakeViewers(enabled: boolean, target: number): LivestreamSettings {
    this.db
      .query("UPDATE livestream_settings SET fake_viewers_enabled = ?, fake_viewers_target = ?, updated_at = ? WHERE id = 1")
      .run(enabled ? 1 : 0, target, Date.now());
    return this.get();
  }

  /** The chat hub sets this once it counts connected viewers. */
  setViewerCountProvider(provider: () => number): void {
    this.viewerCountProvider = provider;
  }

  viewerCount(): number {
    return this.viewerCountProvider();
  }

  /** Sum of counted donations, in pence. */
  donationTotal(): number {
    return this.db.query<{ total: number }, []>("SELECT COALESCE(SUM(amount), 0) AS total FROM donations").get()!.total;
  }

  /** What anyone may read; the stream link only for callers who have paid (or administer). */
  publicView(canWatch: boolean): PublicLivestreamSettings {
    const s = this.get();
    return {
      eventTitle: s.eventTitle,
      startDate: s.startDate,
      thumbnailUrl: s.thumbnailUrl,
      displayThumbnail: s.thumbnailUrl.trim() || DEFAULT_THUMBNAIL_URL,
      thumbnailData: null,
      embedUrl: canWatch ? s.embedUrl : "",
      viewerCount: this.viewerCount(),
      currentDonation: this.donationTotal(),
      donationGoal: s.donationGoal,
      isActive: s.isActive,
    };
  }
}
