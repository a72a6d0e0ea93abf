import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, testEngines } from "../../tests/support/postgres.ts";
import { randomToken, sha256Hex } from "../lib/tokens.ts";
import { AdminService } from "../modules/admin/service.ts";
import { openSqlite, openStore } from "./database.ts";
import { migrate } from "./migrate.ts";
import { migrations } from "./migrations.ts";
import { PostgresStore } from "./postgres-store.ts";
import { SqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

/** Every migration from this one to the newest, in order: what an install at the one before is brought through. */
const versionsFrom = (version: number) => migrations.map((m) => m.version).filter((v) => v >= version);

// The migrations on databases written by earlier releases: each one keeps what was there and means the same.

/** A fresh database on `engine` as a release with migrations up to `version` left it; closed and removed after `use`. */
async function atVersion(engine: string, version: number, use: (store: Store, applied: number[]) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-upgrade-"));
  const pg = engine === "postgres" ? await createTestDatabase() : null;
  const store: Store = pg ? PostgresStore.connect(pg.url) : new SqliteStore(openSqlite(dataDir));
  try {
    await use(
      store,
      await migrate(
        store,
        migrations.filter((m) => m.version <= version),
      ),
    );
  } finally {
    await store.close();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const engine of await testEngines()) {
  test(`on ${engine}, a database from before failed refunds keeps its ledger (an inquiry no longer holds money), and a refund that fails later comes off it`, async () => {
    await atVersion(engine, 7, async (store, applied) => {
      expect(applied).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const at = Date.UTC(2026, 9, 31, 22, 0, 0);
      await store.run(
        "INSERT INTO payments (intent_id, kind, amount, currency, status, fulfilled, created_at, updated_at) VALUES ('pi_old', 'donation', 1000, 'gbp', 'succeeded', 1, ?, ?)",
        at,
        at,
      );
      await store.run("INSERT INTO refunds (id, intent_id, amount, created_at) VALUES ('re_admin', 'pi_old', 200, ?)", at);
      await store.run("INSERT INTO charge_refunds (intent_id, amount_refunded, updated_at) VALUES ('pi_old', 500, ?)", at);
      // An inquiry on another payment: before, it counted as money held; it takes none.
      await store.run(
        "INSERT INTO payments (intent_id, kind, amount, currency, status, fulfilled, created_at, updated_at) VALUES ('pi_asked', 'donation', 700, 'gbp', 'succeeded', 1, ?, ?)",
        at,
        at,
      );
      await store.run("INSERT INTO disputes (id, intent_id, amount, status, created_at, updated_at) VALUES ('dp_old', 'pi_asked', 700, 'warning_needs_response', ?, ?)", at, at);
      expect(await store.get("SELECT disputed_amount FROM payment_ledger WHERE intent_id = 'pi_asked'")).toEqual({ disputed_amount: 700 });
      const ledger = () =>
        store.get<{ refunded_amount: number; failed_refund_amount: number; refund_failure: string | null }>(
          "SELECT refunded_amount, failed_refund_amount, refund_failure FROM payment_ledger WHERE intent_id = 'pi_old'",
        );
      expect(await store.get("SELECT refunded_amount FROM payment_ledger WHERE intent_id = 'pi_old'")).toEqual({ refunded_amount: 500 });

      expect(
        await migrate(
          store,
          migrations.filter((m) => m.version <= 8),
        ),
      ).toEqual([8]);
      expect(await ledger()).toEqual({ refunded_amount: 500, failed_refund_amount: 0, refund_failure: null });
      expect(await store.get("SELECT observed_at FROM charge_refunds")).toEqual({ observed_at: at / 1000 });
      expect(await store.get("SELECT disputed_amount, dispute_status FROM payment_ledger WHERE intent_id = 'pi_asked'")).toEqual({
        disputed_amount: 0,
        dispute_status: "warning_needs_response",
      });
      expect(await store.get("SELECT observed_at FROM disputes")).toEqual({ observed_at: at / 1000 });
      expect(await store.get("SELECT status, refund_created, failed_at FROM refunds")).toEqual({ status: "succeeded", refund_created: null, failed_at: null });
      // The admin's £2 refund fails after the charge was last seen: the charge's £5 counted it, £3 is left.
      await store.run("UPDATE refunds SET status = 'failed', failure_reason = 'lost_or_stolen_card', failed_at = ?", at / 1000 + 60);
      expect(await ledger()).toEqual({ refunded_amount: 300, failed_refund_amount: 200, refund_failure: "lost_or_stolen_card" });
    });
  });
}

if ((await testEngines()).includes("postgres")) {
  test("two instances starting together on one PostgreSQL database migrate it once", async () => {
    const pg = await createTestDatabase();
    try {
      const stores = await Promise.all([0, 1, 2].map(() => openStore({ dataDir: "/nonexistent", databaseUrl: pg.url })));
      const rows = await stores[0]!.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
      expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
      expect(await stores[0]!.get("SELECT COUNT(*) AS n FROM livestream_settings")).toEqual({ n: 1 });
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await pg.drop();
    }
  });
}

for (const engine of await testEngines()) {
  test(`on ${engine}, the ledger view of migration 9 gives every payment the same figures as migration 8's`, async () => {
    await atVersion(engine, 8, async (store) => {
      const at = Date.UTC(2026, 10, 20, 20, 0, 0);
      const pay = (intent: string, amount: number) =>
        store.run(
          "INSERT INTO payments (intent_id, kind, amount, currency, status, fulfilled, created_at, updated_at) VALUES (?, 'access', ?, 'eur', 'succeeded', 1, ?, ?)",
          intent,
          amount,
          at,
          at,
        );
      const refund = (
        id: string,
        intent: string,
        amount: number,
        status = "succeeded",
        created: number | null = 100,
        failedAt: number | null = null,
        reason: string | null = null,
      ) =>
        store.run(
          "INSERT INTO refunds (id, intent_id, amount, created_at, status, failure_reason, refund_created, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          id,
          intent,
          amount,
          at,
          status,
          reason,
          created,
          failedAt,
        );
      const charge = (intent: string, refunded: number, observed: number) =>
        store.run("INSERT INTO charge_refunds (intent_id, amount_refunded, updated_at, observed_at) VALUES (?, ?, ?, ?)", intent, refunded, at, observed);
      const dispute = (id: string, intent: string, amount: number, status: string, closed: number, updated: number) =>
        store.run(
          "INSERT INTO disputes (id, intent_id, amount, status, closed, created_at, updated_at, observed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          id,
          intent,
          amount,
          status,
          closed,
          updated,
          updated,
          updated / 1000,
        );
      await pay("pi_plain", 500);
      await pay("pi_partly", 500);
      await refund("re_p1", "pi_partly", 100);
      await refund("re_p2", "pi_partly", 150);
      await pay("pi_charge_ahead", 500); // the charge's word counts a refund this server never saw by its id
      await refund("re_c1", "pi_charge_ahead", 100);
      await charge("pi_charge_ahead", 300, 200);
      await pay("pi_failed_after", 500); // counted by the charge, then failed after it
      await refund("re_f1", "pi_failed_after", 200, "failed", 150, 400, "expired_or_canceled_card");
      await refund("re_f2", "pi_failed_after", 100);
      await charge("pi_failed_after", 300, 300);
      await pay("pi_failed_before", 500); // failed before the charge's word: the word already left it out
      await refund("re_fb", "pi_failed_before", 200, "canceled", 150, 250);
      await refund("re_fb2", "pi_failed_before", 50, "failed", null, 260, "lost_or_stolen_card");
      await charge("pi_failed_before", 0, 300);
      await pay("pi_over", 500);
      await refund("re_o1", "pi_over", 400);
      await charge("pi_over", 700, 500);
      await pay("pi_disputed", 800);
      await dispute("dp_open", "pi_disputed", 800, "needs_response", 0, at);
      await pay("pi_two_disputes", 800);
      await dispute("dp_won", "pi_two_disputes", 300, "won", 1, at);
      await dispute("dp_lost", "pi_two_disputes", 500, "lost", 1, at + 5000);
      await dispute("dp_later", "pi_two_disputes", 200, "under_review", 0, at - 5000);
      await pay("pi_inquiry", 600);
      await dispute("dp_inq", "pi_inquiry", 600, "warning_needs_response", 0, at);
      await refund("re_inq", "pi_inquiry", 600);
      await pay("pi_inquiry_closed", 600);
      await dispute("dp_inq_c", "pi_inquiry_closed", 600, "warning_closed", 1, at);
      await refund("re_orphan", "pi_never_sold", 100); // rows for an intent with no payment yet
      await dispute("dp_orphan", "pi_never_sold", 100, "lost", 1, at);

      const ledger = () =>
        store.all<Record<string, unknown>>(`SELECT intent_id, refunded_amount, disputed_amount, dispute_status, dispute_closed, failed_refund_amount, refund_failure
          FROM payment_ledger ORDER BY intent_id`);
      const before = await ledger();
      expect(before).toHaveLength(10);
      expect(before.find((r) => r.intent_id === "pi_failed_after")).toMatchObject({ refunded_amount: 100, failed_refund_amount: 200, refund_failure: "expired_or_canceled_card" });
      expect(before.find((r) => r.intent_id === "pi_two_disputes")).toMatchObject({ disputed_amount: 700, dispute_status: "under_review", dispute_closed: 1 });

      expect(
        await migrate(
          store,
          migrations.filter((m) => m.version <= 9),
        ),
      ).toEqual([9]);
      expect(await ledger()).toEqual(before);
      for (const row of before) {
        expect(
          await store.get(
            "SELECT intent_id, refunded_amount, disputed_amount, dispute_status, dispute_closed, failed_refund_amount, refund_failure FROM payment_ledger WHERE intent_id = ?",
            row.intent_id as string,
          ),
        ).toEqual(row);
      }
      if (engine === "postgres") expect(await store.get("SHOW jit")).toEqual({ jit: "off" });
    });
  });
}

for (const engine of await testEngines()) {
  test(`on ${engine}, donation lines from before migration 11 take the currency their donation was paid in`, async () => {
    await atVersion(engine, 10, async (store) => {
      const at = Date.UTC(2026, 9, 31, 22, 0, 0);
      // Ghoul gave €50 under the euro, then £50 after the event moved to pounds; a line with no donation behind it knows none.
      const donate = async (id: number, intent: string, username: string, amount: number, currency: string, time: number) => {
        await store.run(
          "INSERT INTO payments (id, intent_id, kind, amount, currency, status, fulfilled, created_at, updated_at) VALUES (?, ?, 'donation', ?, ?, 'succeeded', 1, ?, ?)",
          id,
          intent,
          amount,
          currency,
          time,
          time,
        );
        await store.run("INSERT INTO donations (payment_id, username, amount, created_at) VALUES (?, ?, ?, ?)", id, username, amount, time);
      };
      await donate(1, "pi_eur", "Ghoul", 5000, "eur", at);
      await donate(2, "pi_gbp", "Ghoul", 5000, "gbp", at + 3_600_000);
      const line = (id: string, seq: number, username: string, text: string, type: string, pence: number | null, time: number) =>
        store.run("INSERT INTO chat_messages (id, seq, username, text, type, donation_pence, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)", id, seq, username, text, type, pence, time);
      await line("a", 1, "ghoul", "donated €50.00", "donation", 5000, at + 20);
      await line("b", 2, "Ghoul", "donated £50.00", "donation", 5000, at + 3_600_015);
      await line("c", 3, "Nobody", "donated £3.00", "donation", 300, at);
      await line("d", 4, "Ghoul", "boo", "user", null, at);

      expect(
        await migrate(
          store,
          migrations.filter((m) => m.version <= 11),
        ),
      ).toEqual([11]);
      expect(await store.all("SELECT id, donation_currency FROM chat_messages ORDER BY seq")).toEqual([
        { id: "a", donation_currency: "eur" },
        { id: "b", donation_currency: "gbp" },
        { id: "c", donation_currency: null },
        { id: "d", donation_currency: null },
      ]);
    });
  });
}

for (const engine of await testEngines()) {
  test(`on ${engine}, migration 12 gives viewers' names their skeletons (the earlier of two look-alikes keeps it), marks the staff's lines and the admins' timeouts`, async () => {
    await atVersion(engine, 11, async (store) => {
      const at = Date.UTC(2026, 9, 31, 22, 0, 0);
      await store.run("INSERT INTO admins (id, username, email, password_hash, created_at) VALUES (1, 'Warden', 'w@example.com', 'x', ?)", at);
      await store.run(
        "INSERT INTO access_codes (id, code, kind, created_at) VALUES (1, 'MOD-AAAA', 'MOD', ?), (2, 'SKP-BBBB', 'SKP', ?), (3, 'SKP-CCCC', 'SKP', ?), (4, 'SKP-DDDD', 'SKP', ?)",
        at,
        at,
        at,
        at,
      );
      await store.run(
        "INSERT INTO users (id, username, access_code_id, created_at) VALUES (1, 'Grimm', 1, ?), (2, 'Raven', 2, ?), (3, 'Rаven', 3, ?), (4, 'Promoted', 4, ?)",
        at,
        at,
        at,
        at,
      );
      await store.run("INSERT INTO chat_moderators (user_id, granted_by, created_at) VALUES (4, 'Warden', ?)", at);
      const line = (id: string, seq: number, userId: number | null, username: string, type = "user") =>
        store.run("INSERT INTO chat_messages (id, seq, user_id, username, text, type, created_at) VALUES (?, ?, ?, ?, 'hi', ?, ?)", id, seq, userId, username, type, at);
      await line("a", 1, null, "warden");
      await line("b", 2, 1, "Grimm");
      await line("c", 3, 2, "Raven");
      await line("d", 4, 4, "Promoted");
      await line("e", 5, 2, "Raven", "donation");
      await store.run(
        "INSERT INTO chat_timeouts (user_id, username, access_code_id, until, timed_out_by, created_at) VALUES (2, 'Raven', 2, ?, 'WARDEN', ?), (3, 'Rаven', 3, ?, 'Grimm', ?)",
        at + 60_000,
        at,
        at + 60_000,
        at,
      );

      expect(
        await migrate(
          store,
          migrations.filter((m) => m.version <= 12),
        ),
      ).toEqual([12]);
      expect(await store.all("SELECT id, name_key FROM users ORDER BY id")).toEqual([
        { id: 1, name_key: "grlrnrn" },
        { id: 2, name_key: "raven" },
        { id: 3, name_key: null },
        { id: 4, name_key: "prornoted" },
      ]);
      expect(await store.all("SELECT id, staff FROM chat_messages ORDER BY seq")).toEqual([
        { id: "a", staff: "admin" },
        { id: "b", staff: "moderator" },
        { id: "c", staff: null },
        { id: "d", staff: "moderator" },
        { id: "e", staff: null },
      ]);
      expect(await store.all("SELECT username, by_admin FROM chat_timeouts ORDER BY user_id")).toEqual([
        { username: "Raven", by_admin: 1 },
        { username: "Rаven", by_admin: 0 },
      ]);
      // Two viewers never hold look-alike names again.
      await expect(store.run("UPDATE users SET name_key = 'raven' WHERE id = 3")).rejects.toThrow();
    });
  });
}

for (const engine of await testEngines()) {
  test(`on ${engine}, migration 20 keeps admin sessions by their token's hash: a session open before the upgrade still opens with its cookie, and the stored id no longer does`, async () => {
    await atVersion(engine, 19, async (store) => {
      const now = Date.now();
      await store.run("INSERT INTO admins (id, username, email, password_hash, created_at, role) VALUES (1, 'warden', 'w@example.com', 'x', ?, 'owner')", now);
      const token = randomToken();
      await store.run(
        "INSERT INTO admin_sessions (id, admin_id, created_at, expires_at, public_id, last_seen_at, verified_at) VALUES (?, 1, ?, ?, 'p1', ?, ?)",
        token,
        now,
        now + 3_600_000,
        now,
        now,
      );
      expect(await migrate(store, migrations)).toEqual(versionsFrom(20));
      expect(await store.all("SELECT id FROM admin_sessions")).toEqual([{ id: sha256Hex(token) }]);
      const admins = new AdminService(store);
      expect((await admins.findSession(token))?.admin.username).toBe("warden");
      expect(await admins.findSession(sha256Hex(token))).toBeNull();
    });
  });
}

for (const engine of await testEngines()) {
  test(`on ${engine}, migration 22 ends a night that was over before the upgrade (switched off with a recording after its start), and leaves an event still ahead as it was`, async () => {
    await atVersion(engine, 21, async (store) => {
      const start = Date.UTC(2026, 9, 31, 20);
      await store.run("UPDATE livestream_settings SET is_active = 0, start_date = ? WHERE id = 1", start);
      const insert = "INSERT INTO recordings (dir, title, state, started_at, ended_at) VALUES (?, 'Live session', 'complete', ?, ?)";
      // A rehearsal the day before, then the night's two sessions.
      await store.run(insert, "a", start - 86_400_000, start - 86_000_000);
      await store.run(insert, "b", start + 60_000, start + 1_800_000);
      await store.run(insert, "c", start + 2_400_000, start + 5_400_000);
      expect(await migrate(store, migrations)).toEqual(versionsFrom(22));
      const row = await store.get<{ went_live_at: number; ended_at: number; sell_after_night: number }>(
        "SELECT went_live_at, ended_at, sell_after_night FROM livestream_settings WHERE id = 1",
      );
      expect({ wentLive: Number(row!.went_live_at), ended: Number(row!.ended_at), sell: Number(row!.sell_after_night) }).toEqual({
        wentLive: start + 60_000,
        ended: start + 5_400_000,
        sell: 1,
      });
      expect((await store.all<{ rehearsal: number }>("SELECT rehearsal FROM recordings")).map((r) => Number(r.rehearsal))).toEqual([0, 0, 0]);
    });
    await atVersion(engine, 21, async (store) => {
      await store.run("UPDATE livestream_settings SET is_active = 0 WHERE id = 1");
      expect(await migrate(store, migrations)).toEqual(versionsFrom(22));
      expect(await store.get("SELECT went_live_at, ended_at FROM livestream_settings WHERE id = 1")).toEqual({ went_live_at: null, ended_at: null });
    });
  });
}

for (const engine of await testEngines()) {
  test(`on ${engine}, migration 24 leaves an installed event not cancelled, and a cancellation can be stored and cleared`, async () => {
    await atVersion(engine, 23, async (store) => {
      expect(await migrate(store, migrations)).toEqual(versionsFrom(24));
      expect(await store.get("SELECT cancelled_at, cancel_note FROM livestream_settings WHERE id = 1")).toEqual({ cancelled_at: null, cancel_note: "" });
      await store.run("UPDATE livestream_settings SET cancelled_at = ?, cancel_note = ? WHERE id = 1", 1_800_000_000_000, "The barn flooded.");
      const row = await store.get<{ cancelled_at: number; cancel_note: string }>("SELECT cancelled_at, cancel_note FROM livestream_settings WHERE id = 1");
      expect({ at: Number(row!.cancelled_at), note: row!.cancel_note }).toEqual({ at: 1_800_000_000_000, note: "The barn flooded." });
    });
  });
}
