import { join } from "node:path";
import type { Cluster } from "./cluster/cluster.ts";
import { clusterNamespace, RedisCluster } from "./cluster/redis-cluster.ts";
import { SoloCluster } from "./cluster/solo-cluster.ts";
import type { Store } from "./db/store.ts";
import { paymentMode, secretKeyBytes, type Config } from "./config.ts";
import type { Logger } from "./lib/logger.ts";
import { AccessService } from "./modules/access/service.ts";
import { ViewerSessionService } from "./modules/access/sessions.ts";
import { AdminPanelEvents } from "./modules/admin/panel-events.ts";
import { AuditLog } from "./modules/admin/audit.ts";
import { AdminService } from "./modules/admin/service.ts";
import { TeamService } from "./modules/admin/team.ts";
import { TwoFactorService } from "./modules/admin/two-factor.ts";
import { DEFAULT_CHAT_BATCHING } from "./modules/chat/fanout.ts";
import { ChatHub } from "./modules/chat/hub.ts";
import { MailService } from "./modules/mail/service.ts";
import { SiteAddress } from "./http/site-address.ts";
import { ReminderService } from "./modules/reminders/service.ts";
import { CancellationMails } from "./modules/reminders/cancellation.ts";
import { createMailTransport } from "./modules/mail/transport.ts";
import { DemoPaymentProvider } from "./modules/payments/demo-provider.ts";
import { PaymentLedger } from "./modules/payments/ledger.ts";
import { RefundService } from "./modules/payments/refunds.ts";
import { PaymentService } from "./modules/payments/service.ts";
import { StripePaymentProvider, createStripeClient } from "./modules/payments/stripe-provider.ts";
import { SettingsService } from "./modules/settings/service.ts";
import { StreamSourceService } from "./modules/stream/source.ts";
import { HlsRelay } from "./modules/stream/relay.ts";
import { apiHeaders } from "./http/security.ts";
import { StreamKeyStore } from "./modules/ingest/key.ts";
import { IngestService } from "./modules/ingest/service.ts";
import { Recorder } from "./modules/replay/recorder.ts";
import { RelayRecorder } from "./modules/replay/relay-recorder.ts";
import { RecordingStore } from "./modules/replay/recordings.ts";
import { DiskRecordingFiles, S3RecordingFiles, type RecordingFiles } from "./modules/replay/files.ts";
import { CachedRecordingFiles } from "./modules/replay/file-cache.ts";
import { ReplayService } from "./modules/replay/service.ts";
import { EventPhaseService } from "./modules/event-phase/service.ts";
import { SecretBox } from "./lib/secret-box.ts";

/** What every feature module is built from: the config, the database, the log and the services. */
export interface AppContext {
  config: Config;
  /** The event's database: embedded SQLite or PostgreSQL, the same queries on both. */
  store: Store;
  log: Logger;
  /** The address in links sent off the site (e-mail): --public-url, else where this server listens; never a request's Host. */
  site: SiteAddress;
  admins: AdminService;
  /** The admin team's members, invites and second factors. */
  adminTeam: { team: TeamService; twoFactor: TwoFactorService };
  /** The open admin panels' event streams: told at once when their member's role or sessions change. */
  adminEvents: AdminPanelEvents;
  /** The append-only record of every admin change and sign-in. */
  audit: AuditLog;
  /** Seals secrets kept in the database (two-factor secrets, the stream key) under a key kept outside it. */
  secrets: SecretBox;
  settings: SettingsService;
  /** The stream source the admin chose and the provider that gives viewers their playback address. */
  stream: StreamSourceService;
  /** The session-gated relay of the HLS origin (while the source is "hls"): what viewers and its recording fetch through. */
  relay: HlsRelay;
  /** The kept recordings of the built-in ingest's publish sessions and of the relayed stream, and the replay made of them. */
  recordings: RecordingStore;
  /** Follows the relayed stream and keeps it (run by one instance of a cluster). */
  relayRecorder: RelayRecorder;
  /** Keeps what the ingest packages and the relay fetches: the replay's recordings. */
  recorder: Recorder;
  replay: ReplayService;
  /** The night's phase: upcoming, pre-show, live, break, ended, replay or closed; what every page reads. */
  phases: EventPhaseService;
  /** The built-in ingest: OBS's RTMP in (while the stream source is "ingest"), LL-HLS out. */
  ingest: IngestService;
  mail: MailService;
  /** The e-mails to buyers 24 hours and 15 minutes before the start, and their unsubscribe. */
  reminders: ReminderService;
  /** The mail to every buyer when the event is cancelled. */
  cancellations: CancellationMails;
  viewerSessions: ViewerSessionService;
  access: AccessService;
  payments: PaymentService;
  /** Refunds and disputes after the sale, and the admin's payments list. */
  ledger: PaymentLedger;
  refunds: RefundService;
  /** The live event's WebSocket hub: connections, counts, bans and broadcasts to everyone watching. */
  chat: ChatHub;
  /** The other instances serving the event (none by default): messages, shared rate limits, single-owner jobs. */
  cluster: Cluster;
  /** Stops timers and workers a module started; run in reverse order on shutdown. */
  disposers: (() => void | Promise<void>)[];
}

/** Alone, or a member of the cluster the Redis URL names (connected before anything else starts). */
function createCluster(config: Config, store: Store, log: Logger): Cluster {
  if (!config.redisUrl || !config.databaseUrl) return new SoloCluster(config.instanceName);
  const cluster = new RedisCluster(config.redisUrl, config.instanceName, clusterNamespace(config.databaseUrl), log);
  // A write another instance may have cached: they are told once it is committed.
  store.watchWrites(() => cluster.noteWrite());
  cluster.listen((message) => {
    if (message.k === "wrote") store.changedElsewhere();
  });
  cluster.onResync(() => store.changedElsewhere());
  return cluster;
}

/** Where recordings go: the bucket --recordings-url names, else DATA_DIR/recordings; the most watched also in memory. */
function recordingFilesFor(config: Config): CachedRecordingFiles {
  return new CachedRecordingFiles(storedRecordingFiles(config), config.replayCacheBytes);
}

function storedRecordingFiles(config: Config): RecordingFiles {
  if (!config.recordingsUrl) return new DiskRecordingFiles(join(config.dataDir, "recordings"));
  return new S3RecordingFiles({
    url: config.recordingsUrl,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    accessKeyId: config.s3AccessKeyId,
    secretAccessKey: config.s3SecretAccessKey,
  });
}

export async function createContext(config: Config, store: Store, log: Logger): Promise<AppContext> {
  const cluster = createCluster(config, store, log);
  await cluster.start();
  const site = new SiteAddress(config);
  // Secrets kept in the database (two-factor secrets, the stream key) are sealed under a key kept outside it.
  const admins = new AdminService(store);
  const adminEvents = new AdminPanelEvents(cluster);
  const secrets = new SecretBox(config.dataDir, config.secretKey ? secretKeyBytes(config.secretKey) : null);
  // Twitch's player names this site as its parent: the host of the same address e-mails link to.
  const settings = new SettingsService(store, new URL(site.url()).hostname, paymentMode(config));
  const mail = new MailService(store, createMailTransport(config, log), log);
  mail.setEventDetails(async () => {
    const { eventTitle, startDate, organizerName, contactEmail, privacyUrl, termsUrl } = await settings.get();
    // After the night, a pass bought is for its replay, and the mail says so.
    const night = await phases.current();
    const replayUntil = night.phase === "replay" ? new Date(night.replayUntilMs).toISOString() : null;
    return {
      title: eventTitle,
      startDate,
      contact: contactEmail ? { name: organizerName, email: contactEmail } : null,
      seller: { name: organizerName, email: contactEmail, privacyUrl, termsUrl },
      replayUntil,
    };
  });
  const viewerSessions = new ViewerSessionService(store, config);
  const access = new AccessService(store, config, viewerSessions, mail);
  const stripe = config.stripeSecretKey ? createStripeClient(config) : null;
  const provider = stripe ? new StripePaymentProvider(stripe, log) : new DemoPaymentProvider(store);
  const ledger = new PaymentLedger(store, access, mail, log);
  mail.setPaidFor((code) => ledger.paidForCode(code));
  const payments = new PaymentService(store, config, provider, stripe, access, viewerSessions, mail, settings, ledger, log, (intentId) => secrets.derive(`pass-code:${intentId}`));
  const refunds = new RefundService(store, provider, ledger, access);
  const chat = new ChatHub(store, settings, viewerSessions, log, { ...DEFAULT_CHAT_BATCHING, windowMs: config.chatBatchMs }, cluster);
  settings.setViewerCountProvider(() => chat.viewerCount());
  await chat.load();
  payments.onDonation((donation) => void chat.announceDonation(donation).catch((error: unknown) => log.error("could not announce a donation", error)));
  const ingest = new IngestService(config, new StreamKeyStore(store, secrets), log, cluster, () => site.boundPort);
  cluster.listen((message) => {
    if (message.k === "ingest") ingest.onClusterMessage(message.what);
  });
  const stream = new StreamSourceService(store, settings, config.allowPrivateOrigins, ingest);
  // Each publish session is kept (the replay); recordings a crash left open are closed with what they hold.
  const recordings = new RecordingStore(store, recordingFilesFor(config), log);
  await recordings.recoverInterrupted();
  const recorder = new Recorder(recordings, log);
  ingest.recorder = recorder;
  const phases = new EventPhaseService(store, settings, stream, ingest);
  settings.setPhaseProvider(() => phases.view());
  const replay = new ReplayService(recordings, settings, phases, chat.messages);
  await stream.load();
  const relay = new HlsRelay(() => stream.relayOrigin(), apiHeaders(config), log, config.allowPrivateOrigins);
  // The relayed stream is kept too, followed by one instance of a cluster, through the relay's own cache.
  const relayRecorder = new RelayRecorder(
    relay,
    () => stream.relayOrigin(),
    async () => (await settings.get()).isActive,
    recorder,
    log,
  );
  cluster.single("relay-recording", relayRecorder);
  const reloadStream = () =>
    stream.load().then(
      () => relayRecorder.nudge(),
      (error: unknown) => log.error("could not read the stream source again", error),
    );
  cluster.listen((message) => {
    if (message.k === "reload" && message.what === "stream") void reloadStream();
  });
  cluster.onResync(() => void reloadStream());
  stream.onSaved = () => {
    cluster.send({ k: "reload", what: "stream" });
    relayRecorder.nudge();
  };
  ledger.onEffects((effects) => {
    for (const codeId of effects.revokedCodeIds ?? []) chat.closeCode(codeId);
    if (effects.donationTotalChanged) chat.broadcastDonationTotal().catch((error: unknown) => log.error("could not announce the donation total", error));
  });
  return {
    config,
    store,
    log,
    site,
    admins,
    adminTeam: {
      team: new TeamService(store, admins),
      // WebAuthn's relying party is this site: the host and origin of the address e-mails link to.
      twoFactor: new TwoFactorService(store, secrets, () => {
        const url = new URL(site.url());
        return { id: url.hostname, origin: url.origin, name: "dreadcast" };
      }),
    },
    adminEvents,
    audit: new AuditLog(store, log),
    secrets,
    settings,
    mail,
    reminders: new ReminderService(store, settings, mail, site, log),
    cancellations: new CancellationMails(store, settings, mail, site, log),
    viewerSessions,
    access,
    payments,
    ledger,
    refunds,
    stream,
    ingest,
    relay,
    recordings,
    relayRecorder,
    recorder,
    replay,
    phases,
    chat,
    cluster,
    // The cluster last: its jobs (mail, samples, fake viewers) stop and its leases are handed over.
    disposers: [() => relay.clear(), () => cluster.stop(), () => chat.stop(), () => ingest.close(), () => adminEvents.close()],
  };
}

export async function disposeContext(ctx: AppContext): Promise<void> {
  for (const dispose of ctx.disposers.splice(0).reverse()) {
    try {
      await dispose();
    } catch (error) {
      ctx.log.error("error while shutting down", error);
    }
  }
}
