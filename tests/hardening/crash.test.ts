import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { defaultConfig } from "../../src/config.ts";
import { createContext, disposeContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { createTestDatabase, testEngines } from "../support/postgres.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { startFakeStripe, stripeEventPayload, type FakeStripe } from "../support/fake-stripe.mjs";
import { adminSession, LEGAL_LINKS } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { WsClient } from "../support/ws.ts";
import { startServer, type ServerProcess } from "../support/server.ts";
import { viewerSession } from "../support/viewer.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import Stripe from "stripe";
import { prng, runSeed, tempDir } from "../support/hardening.ts";

/**
 * Crash safety: the real server (bun src/main.ts) with a fake Stripe and a real SMTP server, buyers
 * buying, donors donating, viewers chatting, Stripe delivering webhooks as it does (retried until
 * answered, sometimes twice, out of order) — and the server SIGKILLed at random moments and restarted
 * on the same data dir. Afterwards every succeeded payment has exactly one access code, every e-mail
 * went out once (one Message-ID per queued message), every acknowledged chat message is in the
 * history and no donation is counted twice.
 */

const SEED = runSeed(20261122) + 13;
const KILLS = Number(process.env.HARDENING_KILLS ?? 6);
const WEBHOOK_SECRET = "whsec_crash";
const signer = new Stripe("sk_test_x");

interface PendingEvent {
  payload: string;
  intentId: string;
  /** Deliveries still owed: Stripe retries until one is answered 2xx, and sometimes sends a success twice. */
  owed: number;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

for (const engine of await testEngines()) {
  test(`${engine}: purchases, donations and chat survive ${KILLS} SIGKILLs: one code per payment, mail once, nothing acknowledged lost`, async () => {
    const rng = prng(SEED);
    const stripe: FakeStripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
    const smtp: TestSmtpServer = await startSmtpServer();
    const dataDir = tempDir("crash");
    cleanup.push(
      () => stripe.close(),
      () => smtp.close(),
      () => rmSync(dataDir, { recursive: true, force: true }),
    );

    // On PostgreSQL: a database of its own, dropped afterwards.
    const pg = engine === "postgres" ? await createTestDatabase("dreadcast_crash") : null;
    if (pg) cleanup.push(() => pg.drop());
    const databaseUrl = pg?.url ?? null;

    // Viewers who will chat and donate, let in before the event (straight in the database).
    const setupDb = await openStore({ dataDir, databaseUrl });
    const setupCtx = await createContext({ ...defaultConfig(), dataDir, databaseUrl }, setupDb, silentLogger);
    const viewers = await Promise.all(Array.from({ length: 5 }, async (_, i) => ({ name: `mourner${i}`, ...(await viewerSession(setupCtx, `mourner${i}`, "SKP")) })));
    const adminCookie = await adminSession(setupCtx);
    // Real card payments sell once the organiser's legal links are published.
    await setupCtx.settings.update(LEGAL_LINKS);
    await disposeContext(setupCtx);
    await closeStore(setupDb);

    const flags = [
      "--stripe-secret-key",
      "sk_test_x",
      "--stripe-publishable-key",
      "pk_test_x",
      "--stripe-webhook-secret",
      WEBHOOK_SECRET,
      "--stripe-api-url",
      stripe.url,
      "--public-url",
      "http://crypt.dreadcast.test",
      "--smtp-url",
      smtp.url,
      "--mail-from",
      "crypt@dreadcast.test",
      "--trust-proxy",
      "127.0.0.1",
    ];
    let server: ServerProcess | null = await startServer(dataDir, flags, { databaseUrl });
    let url: string | null = server.url;
    cleanup.push(() => server?.kill());
    let address = 0;
    /** Requests cut off by a kill while in flight: the moments the test is about. */
    let interrupted = 0;
    const call = async (path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) => {
      const base = url;
      if (!base) throw new Error("server down");
      const res = await fetch(base + path, {
        method: init.method ?? "POST",
        signal: AbortSignal.timeout(10_000),
        headers: {
          origin: base,
          "content-type": "application/json",
          "x-forwarded-for": `10.20.${(++address >> 8) & 255}.${address & 255}`,
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }).catch((error) => {
        interrupted++;
        throw error;
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };

    // --- Stripe's side: signed events delivered until answered, duplicated and reordered -------------------
    const events: PendingEvent[] = [];
    /** An event about any object (a snapshot of it now, as Stripe sends), owed once or twice. */
    const objectEvent = (type: string, intentId: string, object: unknown, duplicate: boolean) =>
      events.push({ intentId, owed: duplicate ? 2 : 1, payload: stripeEventPayload(type, object) });
    const event = (type: string, intentId: string, status: string, duplicate: boolean) => objectEvent(type, intentId, { ...stripe.intents.get(intentId)!, status }, duplicate);
    let webhookDeliveries = 0;
    let webhookFailures = 0;
    const deliverOne = async (): Promise<void> => {
      if (!events.length || !url) return;
      const index = rng.int(0, events.length - 1); // any order
      const pending = events[index]!;
      try {
        const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload: pending.payload, secret: WEBHOOK_SECRET });
        const res = await fetch(url + "/api/stripe/webhook", {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          body: pending.payload,
        });
        webhookDeliveries++;
        if (res.status >= 500) throw new Error(`webhook answered ${res.status}`);
        if (res.status >= 200 && res.status < 300) {
          if (--pending.owed === 0) events.splice(events.indexOf(pending), 1);
        } else webhookFailures++;
      } catch (error) {
        if (String(error).includes("answered 5")) throw error;
        webhookFailures++;
      }
    };

    // --- The workload ---------------------------------------------------------------------------------------
    let stopping = false;
    const buyerCodes = new Map<string, Set<string>>(); // intent → codes the buyer's page was shown
    const paidAccess = new Set<string>();
    const paidDonations = new Map<string, number>();
    const failedIntents = new Set<string>();
    let purchases = 0;

    const buyer = async (worker: number) => {
      for (let i = 0; !stopping; i++) {
        const email = `buyer${worker}x${i}@example.com`;
        let intentId: string | null = null;
        while (!intentId && !stopping) {
          const res = await call("/api/create-payment-intent", { body: { amount: 100, product: "livestream-access", email } }).catch(() => null);
          if (res?.status === 200) intentId = res.body.paymentIntentId;
          else await Bun.sleep(100);
        }
        if (!intentId) return;
        purchases++;
        if (rng.chance(0.85)) {
          stripe.setStatus(intentId, "succeeded");
          paidAccess.add(intentId);
          if (rng.chance(0.5)) event("payment_intent.processing", intentId, "processing", false);
          event("payment_intent.succeeded", intentId, "succeeded", rng.chance(0.3));
          // The buyer's page asks for the code (and asks again after an error) on half the purchases.
          if (rng.chance(0.5)) {
            for (let attempt = 0; attempt < 50 && !stopping; attempt++) {
              const res = await call("/api/generate-access-code", { body: { paymentIntentId: intentId } }).catch(() => null);
              if (res?.status === 200) {
                const seen = buyerCodes.get(intentId) ?? new Set();
                seen.add(res.body.accessCode);
                buyerCodes.set(intentId, seen);
                if (rng.chance(0.7)) break;
              }
              await Bun.sleep(60);
            }
          }
        } else {
          stripe.setStatus(intentId, "canceled");
          failedIntents.add(intentId);
          event("payment_intent.canceled", intentId, "canceled", rng.chance(0.3));
        }
        await Bun.sleep(rng.int(20, 120));
      }
    };

    const sockets = new Map<string, WsClient>();
    const acked = new Set<string>();
    const sentTexts = new Set<string>();
    const chatter = async (v: (typeof viewers)[number]) => {
      for (let n = 0; !stopping; n++) {
        let socket = sockets.get(v.name);
        if (!socket?.open && url) {
          socket = await WsClient.open({ url }, { cookie: (await v).cookie, "x-forwarded-for": `10.30.0.${viewers.indexOf(v)}` }, 2000).catch(() => undefined);
          if (socket) sockets.set(v.name, socket);
        }
        if (socket?.open) {
          const text = `${v.name} says ${n}`;
          sentTexts.add(text);
          socket.send({ type: "chat_message", text });
          // Acknowledged = the server's broadcast of it came back.
          void socket.waitFor((e) => e.type === "chat" && e.message.text === text, 3000).then((e) => e && acked.add(text));
        }
        await Bun.sleep(1100);
      }
    };

    const donor = async () => {
      while (!stopping) {
        const v = await rng.pick(viewers);
        const res = await call("/api/create-donation-intent", { body: { amount: rng.int(1, 50) * 100 }, cookie: v.cookie }).catch(() => null);
        if (res?.status === 200) {
          const id = res.body.paymentIntentId as string;
          stripe.setStatus(id, "succeeded");
          paidDonations.set(id, stripe.intents.get(id)!.amount);
          event("payment_intent.succeeded", id, "succeeded", rng.chance(0.4));
          // The donor's page also reports it over the socket, racing the webhook.
          if (rng.chance(0.5)) sockets.get(v.name)?.send({ type: "donation", paymentIntentId: id });
        }
        await Bun.sleep(rng.int(150, 400));
      }
    };

    // Refunds and disputes after the sale: from Stripe's dashboard (any amount), the admin's API (whole), the bank.
    const touched = new Set<string>();
    const disputes = new Map<string, { intentId: string; status: string }>();
    let adminRefunds = 0;
    const adminRefund = async (intentId: string) => {
      // Retried until answered, as an admin would; a retry carries the same idempotency key.
      for (let attempt = 0; attempt < 100; attempt++) {
        const res = await call("/api/admin/payments/refund", { body: { paymentIntentId: intentId }, cookie: adminCookie }).catch(() => null);
        if (res && res.status >= 500) throw new Error(`refund answered ${res.status}`);
        // Not fulfilled here yet (its success is still on its way): nothing to refund.
        if (res?.status === 404) break;
        if (res?.status === 200 || res?.status === 409) {
          adminRefunds += res.status === 200 ? 1 : 0;
          break;
        }
        await Bun.sleep(100);
      }
      // Stripe then sends its own charge.refunded for what it refunded, whether or not the admin heard back
      // (a server killed between Stripe's answer and its own record, then down past the admin's patience).
      const charge = stripe.chargeOf(intentId);
      if (charge.amount_refunded > 0) objectEvent("charge.refunded", intentId, charge, rng.chance(0.3));
    };
    const afterSale = async () => {
      while (!stopping) {
        await Bun.sleep(rng.int(150, 450));
        const open = [...disputes].filter(([, d]) => d.status === "needs_response");
        if (open.length && rng.chance(0.4)) {
          const [id, d] = rng.pick(open);
          d.status = rng.chance(0.5) ? "won" : "lost";
          objectEvent("charge.dispute.closed", d.intentId, stripe.closeDispute(id, d.status as "won" | "lost"), rng.chance(0.3));
          continue;
        }
        const candidates = [...paidAccess, ...paidDonations.keys()].filter((id) => !touched.has(id));
        if (!candidates.length) continue;
        const id = rng.pick(candidates);
        touched.add(id);
        const charge = stripe.chargeOf(id);
        const roll = rng.int(0, 2);
        if (roll === 0) {
          stripe.refund(id, charge.amount > 1 && rng.chance(0.5) ? rng.int(1, charge.amount - 1) : undefined);
          objectEvent("charge.refunded", id, stripe.chargeOf(id), rng.chance(0.3));
        } else if (roll === 1) {
          await adminRefund(id);
        } else {
          const dispute = stripe.openDispute(id);
          disputes.set(dispute.id, { intentId: id, status: dispute.status });
          objectEvent("charge.dispute.created", id, dispute, rng.chance(0.3));
        }
      }
    };

    // Stripe delivers until the workload is over (an admin's refund may still be retrying) and nothing is owed.
    let workloadDone = false;
    const stripeLoop = async () => {
      while (!workloadDone || events.length) {
        await deliverOne();
        await Bun.sleep(events.length ? rng.int(5, 40) : 50);
        if (stopping && !url) await Bun.sleep(100);
      }
    };

    const workers = [buyer(0), buyer(1), buyer(2), donor(), afterSale(), ...viewers.map(chatter)];
    const stripeWorker = stripeLoop();

    // --- The killer -------------------------------------------------------------------------------------------
    const downtimes: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      await Bun.sleep(rng.int(300, 1800));
      url = null;
      await server.kill("SIGKILL");
      const t = Date.now();
      server = await startServer(dataDir, flags, { databaseUrl });
      url = server.url;
      downtimes.push(Date.now() - t);
    }
    await Bun.sleep(1500);
    stopping = true;
    await Promise.all(workers);
    workloadDone = true;
    await stripeWorker;

    // --- Drain: Stripe has delivered everything; the mail queue empties. ---------------------------------
    const liveTotal = ((await (await fetch(server.url + "/api/livestream-settings")).json()) as { currentDonation: number }).currentDonation;
    const db = await openStore({ dataDir, databaseUrl });
    cleanup.push(() => db.close());
    await eventually(async () => (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM email_queue WHERE status != 'sent'"))!.n === 0, 20_000);
    const finalChat = await fetch(server.url + "/healthz");
    expect(finalChat.status).toBe(200);
    for (const s of sockets.values()) s.close();
    await server.kill("SIGTERM");
    server = null;

    // --- Checks -----------------------------------------------------------------------------------------
    if (engine === "sqlite") expect((await db.get<{ integrity_check: string }>("PRAGMA integrity_check"))!.integrity_check).toBe("ok");

    // Every succeeded access payment: exactly one code, the one the buyer was shown.
    const codeOf = async (intentId: string) =>
      (await db.get<{ code: string; n: number; email: string | null }>(
        `SELECT MIN(c.code) AS code, COUNT(c.id) AS n, MIN(c.email) AS email FROM payments p LEFT JOIN access_codes c ON c.payment_id = p.id WHERE p.intent_id = ?`,
        intentId,
      ))!;
    const problems: string[] = [];
    for (const id of paidAccess) {
      const row = await codeOf(id);
      if (row.n !== 1) problems.push(`${id}: ${row.n} codes`);
      const shown = buyerCodes.get(id);
      if (shown && (shown.size !== 1 || !shown.has(row.code))) problems.push(`${id}: buyer was shown ${[...shown].join(", ")}, stored ${row.code}`);
    }
    for (const id of failedIntents) if ((await codeOf(id)).n !== 0) problems.push(`${id}: a canceled payment has a code`);
    expect(problems).toEqual([]);

    // Every code e-mail went out: one Message-ID per queued message, carrying that code.
    const queued = await db.all<{ id: number; to_address: string; text_body: string }>("SELECT id, to_address, text_body FROM email_queue");
    const codes = await db.all<{ code: string; email: string }>("SELECT code, email FROM access_codes WHERE payment_id IS NOT NULL AND email IS NOT NULL");
    const byMessageId = new Map<string, number>();
    for (const mail of smtp.messages) {
      const id = /^message-id:\s*(.+)$/im.exec(mail.raw)?.[1]?.trim();
      if (id) byMessageId.set(id, (byMessageId.get(id) ?? 0) + 1);
    }
    const mailProblems: string[] = [];
    for (const c of codes) {
      const received = smtp.messages.filter((m) => m.to.includes(c.email) && m.text.includes(c.code) && m.subject === "Your DREADCAST access code");
      const ids = new Set(received.map((m) => /^message-id:\s*(.+)$/im.exec(m.raw)?.[1]?.trim()));
      if (ids.size !== 1) mailProblems.push(`${c.code} to ${c.email}: ${received.length} deliveries with ${ids.size} Message-IDs`);
    }
    expect(mailProblems).toEqual([]);
    expect(byMessageId.size).toBe(queued.length);
    const resent = [...byMessageId.values()].reduce((a, n) => a + n - 1, 0);
    // A resend can only come from a kill between the SMTP server's acceptance and the queue's update.
    expect(resent).toBeLessThanOrEqual(KILLS);

    // Every succeeded donation counted exactly once, and nothing else counted.
    const donations = await db.all<{ intent_id: string; n: number; amount: number }>(
      "SELECT p.intent_id, COUNT(d.id) AS n, SUM(d.amount) AS amount FROM donations d JOIN payments p ON p.id = d.payment_id GROUP BY p.intent_id",
    );
    const counted = new Map(donations.map((d) => [d.intent_id, d]));
    const donationProblems: string[] = [];
    for (const [id, amount] of paidDonations) {
      const d = counted.get(id);
      if (!d || d.n !== 1 || d.amount !== amount) donationProblems.push(`${id}: counted ${d?.n ?? 0} times`);
    }
    for (const d of donations) if (!paidDonations.has(d.intent_id)) donationProblems.push(`${d.intent_id}: counted but never paid`);
    expect(donationProblems).toEqual([]);
    const lines = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM chat_messages WHERE type = 'donation'"))!.n;
    expect(lines).toBeLessThanOrEqual(paidDonations.size);

    // Refunds and disputes: each applied once, whatever order and however often Stripe sent them.
    const ledger = await db.all<{
      intent_id: string;
      kind: string;
      amount: number;
      refunded_amount: number;
      disputed_amount: number;
      revoked: number | null;
      refunds: number;
    }>(`SELECT l.intent_id, l.kind, l.amount, l.refunded_amount, l.disputed_amount, c.revoked,
       (SELECT COALESCE(SUM(r.amount), 0) FROM refunds r WHERE r.intent_id = l.intent_id) AS refunds
     FROM payment_ledger l LEFT JOIN access_codes c ON c.payment_id = l.id WHERE l.fulfilled = 1`);
    const held = (intentId: string) =>
      [...disputes.values()].filter((d) => d.intentId === intentId && d.status !== "won").reduce((sum) => sum + stripe.chargeOf(intentId).amount, 0);
    const ledgerProblems: string[] = [];
    let expectedTotal = 0;
    let revokedPasses = 0;
    for (const row of ledger) {
      const charge = stripe.chargeOf(row.intent_id);
      if (row.refunded_amount !== charge.amount_refunded) ledgerProblems.push(`${row.intent_id}: refunded ${row.refunded_amount}, Stripe says ${charge.amount_refunded}`);
      if (row.refunds > charge.amount_refunded) ledgerProblems.push(`${row.intent_id}: refunds recorded ${row.refunds} > refunded ${charge.amount_refunded}`);
      if (row.disputed_amount !== held(row.intent_id)) ledgerProblems.push(`${row.intent_id}: disputed ${row.disputed_amount}, expected ${held(row.intent_id)}`);
      const net = row.amount - Math.min(row.amount, charge.amount_refunded + held(row.intent_id));
      if (row.kind === "donation") expectedTotal += net;
      else {
        // A dispute ends the pass when it opens; winning it restores the money, not the pass.
        const disputed = [...disputes.values()].some((d) => d.intentId === row.intent_id);
        const shouldRevoke = charge.amount_refunded >= row.amount || disputed;
        if ((row.revoked === 1) !== shouldRevoke) ledgerProblems.push(`${row.intent_id}: pass revoked=${row.revoked}, expected ${shouldRevoke}`);
        if (shouldRevoke) revokedPasses++;
      }
    }
    expect(ledgerProblems).toEqual([]);
    expect(liveTotal).toBe(expectedTotal);
    // A pass refunded in full: its buyer told once.
    const refundedPasses = await db.all<{
      code: string;
      email: string;
    }>(`SELECT c.code, COALESCE(l.email, c.email) AS email FROM payment_ledger l JOIN access_codes c ON c.payment_id = l.id
     WHERE l.kind = 'access' AND l.refunded_amount >= l.amount AND COALESCE(l.email, c.email) IS NOT NULL`);
    const refundMailProblems = refundedPasses
      .map((p) => [p, smtp.messages.filter((m) => m.to.includes(p.email) && m.subject === "Your DREADCAST access pass has been refunded" && m.text.includes(p.code))] as const)
      .filter(([, mails]) => new Set(mails.map((m) => /^message-id:\s*(.+)$/im.exec(m.raw)?.[1]?.trim())).size !== 1)
      .map(([p, mails]) => `${p.code}: ${mails.length} refund e-mails`);
    expect(refundMailProblems).toEqual([]);

    // Every acknowledged chat message is in the history.
    const stored = new Set((await db.all<{ text: string }>("SELECT text FROM chat_messages WHERE type = 'user'")).map((r) => r.text));
    const lost = [...acked].filter((t) => !stored.has(t));
    expect(lost).toEqual([]);

    console.log(
      `crash: ${KILLS} SIGKILLs (restart ${Math.min(...downtimes)}–${Math.max(...downtimes)} ms), ${interrupted} requests cut off mid-flight, ${purchases} purchases (${paidAccess.size} paid, ${failedIntents.size} canceled), ` +
        `${paidDonations.size} donations, ${touched.size} refunded or disputed (${adminRefunds} by the admin, ${disputes.size} disputes, ${revokedPasses} passes revoked), ` +
        `${webhookDeliveries} webhook deliveries (${webhookFailures} failed and retried), ` +
        `${queued.length} e-mails (${resent} resent after a crash), ${acked.size}/${sentTexts.size} chat messages acknowledged, all kept`,
    );
    expect(paidAccess.size).toBeGreaterThan(10);
    expect(paidDonations.size).toBeGreaterThan(3);
    expect(touched.size).toBeGreaterThan(5);
    expect(revokedPasses).toBeGreaterThan(0);
    expect(acked.size).toBeGreaterThan(10);
  }, 180_000);
}
