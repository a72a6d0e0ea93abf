import type { Store } from "../../db/store.ts";
import type { AccessCodeRecord, PassHold, StatsSample, UserRecord } from "../../contracts/admin-panel.ts";
import { badRequest, conflict, notFound } from "../../lib/errors.ts";
import type { AccessService } from "../access/service.ts";
import { passEmailSql, passHold, viewerEmailSql } from "../payments/ledger.ts";
import { toCsv } from "../../http/csv.ts";

interface CodeRow {
  id: number;
  code: string;
  kind: "SKP" | "MOD" | "SCP";
  used: number;
  revoked: number;
  /** The code's payment as the ledger sees it (null: no payment behind the code). */
  pay_intent: string | null;
  pay_amount: number | null;
  refunded_amount: number | null;
  dispute_status: string | null;
  dispute_closed: number | null;
  bound: number;
  email: string | null;
  username: string | null;
  created_at: number;
}

interface UserRow {
  id: number;
  username: string;
  email: string | null;
  access_code_id: number | null;
  code: string | null;
  kind: "SKP" | "MOD" | "SCP" | null;
  revoked: number | null;
  pay_amount: number | null;
  refunded_amount: number | null;
  dispute_status: string | null;
  dispute_closed: number | null;
  promoted: number;
  banned: number;
  created_at: number;
}

/** A code with its latest user and its payment as the ledger sees it (what keeps a bought pass revoked). */
const CODE_SELECT = `SELECT c.id, c.code, c.kind, c.used, c.revoked, c.device_fingerprint IS NOT NULL AS bound, ${passEmailSql("c", "l")} AS email, c.created_at,
           l.intent_id AS pay_intent, l.amount AS pay_amount, l.refunded_amount, l.dispute_status, l.dispute_closed,
           (SELECT u.username FROM users u WHERE u.access_code_id = c.id ORDER BY u.id DESC LIMIT 1) AS username
         FROM access_codes c LEFT JOIN payment_ledger l ON l.id = c.payment_id`;

/** Why a restore is refused, by what keeps the pass revoked. */
const HOLD_REFUSALS: Record<PassHold, string> = {
  refunded: "This pass was refunded in full, so it stays revoked. Generate a new code to let the buyer in again.",
  disputed: "This pass's payment was disputed, so it stays revoked. Generate a new code to let the buyer in again.",
  inquiry: "The buyer's bank is asking about this pass's payment, so it stays revoked until the inquiry is closed.",
};

const SAMPLE_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const CHART_POINTS = 240;

/**
 * The rules behind the admin panel's lists: access codes, users and the stats history. It reads the codes
 * with their payments for the lists; every change to a code or its sessions goes through `AccessService`,
 * which owns those tables.
 */
export class AdminPanelService {
  constructor(
    private readonly store: Store,
    private readonly access: AccessService,
  ) {}

  async counts(): Promise<{ userCount: number; accessCodeCount: number }> {
    return (await this.store.get<{ userCount: number; accessCodeCount: number }>(
      'SELECT (SELECT COUNT(*) FROM users) AS "userCount", (SELECT COUNT(*) FROM access_codes) AS "accessCodeCount"',
    ))!;
  }

  async listAccessCodes(): Promise<AccessCodeRecord[]> {
    return (await this.store.all<CodeRow>(`${CODE_SELECT} ORDER BY c.created_at DESC, c.id DESC`)).map(toCodeRecord);
  }

  async findAccessCode(id: number): Promise<AccessCodeRecord> {
    return toCodeRecord(await this.codeRow(id));
  }

  /** One code's row, with its payment as the ledger sees it; 404 for an unknown id. */
  private async codeRow(id: number): Promise<CodeRow> {
    const row = await this.store.get<CodeRow>(`${CODE_SELECT} WHERE c.id = ?`, id);
    if (!row) throw notFound("Unknown access code");
    return row;
  }

  /** A new regular or moderator code, made by an admin (no payment behind it). */
  async createAccessCode(kind: "SKP" | "MOD", email: string | undefined): Promise<AccessCodeRecord> {
    return this.findAccessCode((await this.access.issueAccessCode(kind, { email })).id);
  }

  /**
   * The code to send again and the address it goes to: the one given (then remembered on the code, so the
   * list shows it), else the code's own. A code with no address, or a revoked one, is not sent.
   */
  async prepareSend(id: number, email: string | undefined): Promise<{ record: AccessCodeRecord; to: string }> {
    const record = await this.findAccessCode(id);
    const to = email ?? record.email;
    if (!to) throw badRequest("Enter an e-mail address to send this code to");
    if (record.revoked) throw badRequest("This access code has been revoked");
    if (email) await this.access.setEmail(id, email);
    return { record, to };
  }

  /** Revokes a code and ends every viewer session made with it; returns the usernames that held it. */
  async revoke(id: number): Promise<string[]> {
    await this.findAccessCode(id);
    return await this.store.tx(() => this.access.revoke(id));
  }

  /**
   * Lets a revoked code work again (revoked by mistake, or with a refund that then failed): its holder can
   * enter it again. A pass whose payment stays refunded in full, was ever disputed or is under an open
   * inquiry stays revoked, as the ledger would revoke it again at its payment's next event; a new code is
   * the way to let that buyer in (an inquiry closed, the pass can be restored).
   */
  async restore(id: number): Promise<AccessCodeRecord> {
    const row = await this.codeRow(id);
    if (row.revoked !== 1) return toCodeRecord(row);
    await this.store.tx(async () => {
      if (row.pay_intent !== null) {
        // The ledger's lock: a refund or dispute being recorded for this payment is seen, or waits.
        await this.store.lock(`payment:${row.pay_intent}`);
        const hold = toCodeRecord(await this.codeRow(id)).hold;
        if (hold) throw conflict(HOLD_REFUSALS[hold]);
      }
      await this.access.unrevoke(id);
    });
    return this.findAccessCode(id);
  }

  /**
   * Forgets the device a regular code is bound to (a buyer who changed phone) and ends the sessions made
   * with it, so the device that held it is out at once; the next device to enter the code binds.
   */
  async resetDevice(id: number): Promise<AccessCodeRecord> {
    const code = await this.findAccessCode(id);
    if (code.revoked) throw badRequest("This access code has been revoked");
    await this.access.unbindDevice(id);
    return this.findAccessCode(id);
  }

  async listUsers(): Promise<UserRecord[]> {
    return (
      await this.store.all<UserRow>(`SELECT u.id, u.username, ${viewerEmailSql("u", "c", "l")} AS email, u.access_code_id, c.code, c.kind, c.revoked, u.created_at,
           l.amount AS pay_amount, l.refunded_amount, l.dispute_status, l.dispute_closed,
           EXISTS (SELECT 1 FROM chat_moderators m WHERE m.user_id = u.id) AS promoted,
           -- Two lookups rather than one with OR: each is answered from an index or a hash of the bans
           -- (PostgreSQL compared every ban's case-insensitive name with every user's: 200 ms at 5,000 users).
           (EXISTS (SELECT 1 FROM banned_users b WHERE b.username = u.username)
             OR EXISTS (SELECT 1 FROM banned_users b WHERE b.access_code_id = u.access_code_id)) AS banned
         FROM users u LEFT JOIN access_codes c ON c.id = u.access_code_id LEFT JOIN payment_ledger l ON l.id = c.payment_id
         ORDER BY u.created_at DESC, u.id DESC`)
    ).map((r) => ({
      id: r.id,
      username: r.username,
      email: r.email,
      accessCodeId: r.access_code_id,
      accessCode: r.code,
      banned: r.banned === 1,
      revoked: r.revoked === 1,
      hold:
        r.pay_amount === null
          ? null
          : passHold({ amount: r.pay_amount, refunded_amount: r.refunded_amount ?? 0, dispute_status: r.dispute_status, dispute_closed: r.dispute_closed }),
      moderator: r.kind === "MOD" ? "code" : r.promoted === 1 ? "panel" : null,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async accessCodesCsv(): Promise<string> {
    return toCsv(
      ["code", "kind", "used", "revoked", "device_bound", "email", "username", "created_at"],
      (await this.listAccessCodes()).map((c) => [c.code, c.kind, c.used, c.revoked, c.deviceBound, c.email, c.username, c.createdAt]),
    );
  }

  async usersCsv(): Promise<string> {
    return toCsv(
      ["username", "email", "access_code", "banned", "moderator", "created_at"],
      (await this.listUsers()).map((u) => [u.username, u.email, u.accessCode, u.banned, u.moderator !== null, u.createdAt]),
    );
  }

  /** A minute's sample: the viewers, and the donation total in `currency` (the only one it counts). */
  async recordSample(viewerCount: number, donationTotal: number, currency: string, at = Date.now()): Promise<void> {
    await this.store.run(
      `INSERT INTO stats_samples (sampled_at, viewer_count, donation_total, currency) VALUES (?, ?, ?, ?)
       ON CONFLICT (sampled_at) DO UPDATE SET viewer_count = excluded.viewer_count, donation_total = excluded.donation_total, currency = excluded.currency`,
      at,
      viewerCount,
      donationTotal,
      currency,
    );
    await this.store.run("DELETE FROM stats_samples WHERE sampled_at < ?", at - SAMPLE_KEEP_MS);
  }

  /**
   * The samples of the last `windowMs`, thinned to at most CHART_POINTS (keeping each bucket's peak
   * viewers), with the donations in the event's `currency`. A sample taken while the event had another
   * currency counted that one: it shows the last total taken in `currency` before it (nothing was
   * donated in `currency` meanwhile), or 0 when there is none. Samples from before they kept their
   * currency count as `currency`.
   */
  async history(currency: string, windowMs = 24 * 60 * 60 * 1000, now = Date.now()): Promise<StatsSample[]> {
    const from = now - windowMs;
    const rows = await this.store.all<{ sampled_at: number; viewer_count: number; donation_total: number; currency: string | null }>(
      "SELECT sampled_at, viewer_count, donation_total, currency FROM stats_samples WHERE sampled_at >= ? ORDER BY sampled_at",
      from,
    );
    const before = await this.store.get<{ donation_total: number }>(
      "SELECT donation_total FROM stats_samples WHERE sampled_at < ? AND (currency = ? OR currency IS NULL) ORDER BY sampled_at DESC LIMIT 1",
      from,
      currency,
    );
    let inCurrency = before?.donation_total ?? 0;
    const donations: number[] = [];
    for (const r of rows) {
      if (r.currency === null || r.currency === currency) inCurrency = r.donation_total;
      donations.push(inCurrency);
    }
    const step = Math.ceil(rows.length / CHART_POINTS);
    const out: StatsSample[] = [];
    for (let i = 0; i < rows.length; i += step) {
      const bucket = rows.slice(i, i + step);
      const last = Math.min(i + step, rows.length) - 1;
      out.push({
        sampledAt: new Date(rows[last]!.sampled_at).toISOString(),
        viewerCount: Math.max(...bucket.map((r) => r.viewer_count)),
        donationTotal: donations[last]!,
      });
    }
    return out;
  }
}

function toCodeRecord(r: CodeRow): AccessCodeRecord {
  return {
    id: r.id,
    code: r.code,
    kind: r.kind,
    used: r.used === 1,
    revoked: r.revoked === 1,
    hold:
      r.pay_amount === null
        ? null
        : passHold({ amount: r.pay_amount, refunded_amount: r.refunded_amount ?? 0, dispute_status: r.dispute_status, dispute_closed: r.dispute_closed }),
    deviceBound: r.bound === 1,
    email: r.email,
    username: r.username,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
