import { derivePhase, endOf, phaseOnSale, type EventPhase, type EventPhaseView, type PhaseInputs } from "../../contracts/event-phase.ts";
import { replayUntilOf } from "../../contracts/replay.ts";
import type { Store } from "../../db/store.ts";
import { conflict } from "../../lib/errors.ts";
import type { IngestService } from "../ingest/service.ts";
import { RECORDING_TABLES } from "../replay/recordings.ts";
import type { SettingsService } from "../settings/service.ts";
import type { StreamSourceService } from "../stream/source.ts";

/** What the phase asks of the recordings. */
export interface RecordingFacts {
  /** A recording not hidden. */
  anyKept: boolean;
  /** One being written now. */
  recording: boolean;
}

/** The phase with what it was derived from, for the server's own use. */
export interface PhaseNow extends EventPhaseView {
  /** When the replay's window closes (ms). */
  replayUntilMs: number;
  /** When the night ended, as the owner ended it or at its latest end (ms), null before. */
  endedAtMs: number | null;
}

const msOf = (iso: string | null) => (iso === null ? null : Date.parse(iso));
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The night's phase (contracts/event-phase.ts), the one answer every page, the payment dialog, the mails
 * and the panel read. Derived on each ask from the settings (cached until a write), the clock and the
 * publisher; the first time a publisher is live with the doors open is written down (a publisher gone
 * after it is a break, not the end).
 */
export class EventPhaseService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly stream: StreamSourceService,
    private readonly ingest: IngestService,
  ) {}

  private kept: { writes: number; facts: RecordingFacts } | null = null;

  /** What the phase and the pages ask of the recordings: read once per change of their tables. */
  async facts(): Promise<RecordingFacts> {
    const writes = this.store.writesTo(RECORDING_TABLES);
    if (this.kept?.writes === writes) return this.kept.facts;
    const row = await this.store.get<{ visible: number | null; recording: number | null }>(
      "SELECT MAX(CASE WHEN hidden = 0 THEN 1 ELSE 0 END) AS visible, MAX(CASE WHEN state = 'recording' THEN 1 ELSE 0 END) AS recording FROM recordings",
    );
    const facts = { anyKept: Number(row?.visible ?? 0) === 1, recording: Number(row?.recording ?? 0) === 1 };
    // Inside a transaction that may still roll back, nothing is kept.
    if (!this.store.inTransaction()) this.kept = { writes, facts };
    return facts;
  }

  /** Whether a publisher is sending: the built-in ingest's, or the relayed origin's while it is being recorded; "unknown" for a provider's player. */
  private async publisher(): Promise<PhaseInputs["publisher"]> {
    const kind = this.stream.provider().kind;
    if (kind === "ingest") return this.ingest.watchableNow() ? "on" : "off";
    if (kind === "hls") return (await this.facts()).recording ? "on" : "off";
    // A provider's player cannot tell; an embed with no address set plays nothing.
    if (kind === "embed" && (await this.settings.get()).embedUrl === "") return "off";
    return "unknown";
  }

  async current(now = Date.now()): Promise<PhaseNow> {
    const s = await this.settings.get();
    const publisher = await this.publisher();
    const replayUntilMs = replayUntilOf(s);
    const inputs: PhaseInputs = {
      now,
      start: Date.parse(s.startDate),
      doorsOpen: s.isActive,
      openedAt: msOf(s.openedAt),
      wentLiveAt: msOf(s.wentLiveAt),
      endedAt: msOf(s.endedAt),
      latestEnd: msOf(s.latestEnd),
      publisher,
      replayOffered: s.replayEnabled && (await this.facts()).anyKept,
      replayUntil: replayUntilMs,
      sellAfterNight: s.sellAfterNight,
      cancelledAt: msOf(s.cancelledAt),
    };
    let phase: EventPhase = derivePhase(inputs);
    // The night went live: from now on a publisher that goes away is a break.
    if (inputs.wentLiveAt === null && (phase === "live" || phase === "preshow") && (publisher === "on" || (publisher === "unknown" && phase === "live"))) {
      if (!this.store.inTransaction()) await this.store.run("UPDATE livestream_settings SET went_live_at = ? WHERE id = 1 AND went_live_at IS NULL", now);
      inputs.wentLiveAt = now;
      phase = derivePhase(inputs);
    }
    const endedAtMs = endOf(inputs);
    return {
      phase,
      onAir: (phase === "live" || phase === "preshow") && publisher !== "off",
      openedAt: iso(inputs.openedAt),
      wentLiveAt: iso(inputs.wentLiveAt),
      endedAt: iso(endedAtMs),
      latestEnd: iso(inputs.latestEnd),
      onSale: phaseOnSale(phase, s.sellAfterNight),
      cancelledAt: s.cancelledAt,
      cancelNote: s.cancelledAt === null ? "" : s.cancelNote,
      replayUntilMs,
      endedAtMs,
    };
  }

  /** The view pages read (GET /api/livestream-settings, the settings pushed to them). */
  async view(now = Date.now()): Promise<EventPhaseView> {
    const { replayUntilMs: _until, endedAtMs: _ended, ...view } = await this.current(now);
    return view;
  }

  /**
   * The doors open: what is published is live to pass holders (before the start, a pre-show). A night that
   * was ended, or an event cancelled, opens again (the owner did it by mistake). A rehearsal being recorded as the doors open is
   * kept in the replay from this moment on.
   */
  async open(now = Date.now()): Promise<void> {
    await this.store.tx(async () => {
      await this.store.run(
        `UPDATE livestream_settings SET is_active = 1, opened_at = ?, ended_at = NULL, cancelled_at = NULL, cancel_note = '',
         calendar_sequence = calendar_sequence + CASE WHEN cancelled_at IS NULL THEN 0 ELSE 1 END, updated_at = ? WHERE id = 1`,
        now,
        now,
      );
      await this.store.run(
        `UPDATE recordings SET rehearsal = 0, hidden = 0, trim_start_ms = CASE WHEN trim_start_ms > ?1 - started_at THEN trim_start_ms ELSE ?1 - started_at END
         WHERE state = 'recording' AND rehearsal = 1`,
        now,
      );
    });
  }

  /** The night is over: pass holders get the replay (once there is one) or word that it has ended. */
  async end(now = Date.now()): Promise<void> {
    const { phase } = await this.current(now);
    if (phase === "ended" || phase === "replay" || phase === "closed") throw conflict("The night has already been ended.");
    await this.store.run("UPDATE livestream_settings SET is_active = 0, ended_at = ?, updated_at = ? WHERE id = 1", now, now);
  }

  /**
   * The event is called off before it went live: nothing is sold or shown from now on, the pages and the
   * search engines say it is cancelled (with the owner's note), and the reminders stop. A night that has
   * gone live is ended instead (its replay is what its buyers paid for).
   */
  async cancel(note: string, now = Date.now()): Promise<void> {
    const { phase, cancelledAt, wentLiveAt } = await this.current(now);
    if (cancelledAt !== null) throw conflict("The event has already been cancelled.");
    if (phase === "ended" || phase === "replay" || phase === "closed") throw conflict("The night has already been ended.");
    if (wentLiveAt !== null) throw conflict("The night has already gone live: end it instead.");
    await this.store.run(
      // The calendar entry's sequence moves on: the cancellation the mails carry replaces the entry (RFC 5546).
      "UPDATE livestream_settings SET is_active = 0, cancelled_at = ?, cancel_note = ?, ended_at = COALESCE(ended_at, ?), calendar_sequence = calendar_sequence + 1, updated_at = ? WHERE id = 1",
      now,
      note,
      now,
      now,
    );
  }
}
