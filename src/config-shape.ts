/** What the server is started with: every flag (config-flags.ts), read and checked once by config.ts. */

/** Everything the server needs to know, validated once at boot. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL: the event's database on PostgreSQL instead of the SQLite file in dataDir. */
  databaseUrl: string | null;
  /** With PostgreSQL: the longest a statement may take, in ms (0: no limit); see PostgresStore. */
  databaseTimeoutMs: number;
  publicUrl: string | null;
  stripeSecretKey: string | null;
  stripePublishableKey: string | null;
  stripeWebhookSecret: string | null;
  stripeApiUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  enableTestCodes: boolean;
  trustProxy: string[];
  /** The HLS relay may fetch from loopback, private and link-local addresses (an origin beside the server). */
  allowPrivateOrigins: boolean;
  /** The longest a busy chat holds a line to send several in one frame; 0 sends each line at once. */
  chatBatchMs: number;
  /** Bytes of the replay's most asked-for files kept in memory; 0 keeps none. */
  replayCacheBytes: number;
  /** A redis:// URL: this instance joins a cluster serving one event (needs PostgreSQL). */
  redisUrl: string | null;
  /** This instance's name in logs and metrics (default: host name and process id). */
  instanceName: string;
  /** In a cluster, where the other instances reach this one's HTTP port (the built-in ingest's stream); default from --host and --port. */
  internalUrl: string | null;
  /** Serve /metrics (Prometheus text format) to anyone who can reach it. */
  metrics: boolean;
  /** Serve /metrics to requests bearing this token (Authorization: Bearer …). */
  metricsToken: string | null;
  /** The RTMP port OBS publishes to while the stream source is the built-in ingest (0 picks a free one). */
  rtmpPort: number;
  /** RTMPS beside it, when a certificate is given. */
  rtmpsPort: number;
  /** PEM files of the certificate chain and key for RTMPS; both or neither. */
  tlsCert: string | null;
  tlsKey: string | null;
  /**
   * The 32-byte key (64 hex digits or base64) that seals secrets kept in the database (two-factor secrets,
   * the stream key); default: a key file made in the data directory on first use. A cluster shares it.
   */
  secretKey: string | null;
  /**
   * What OBS is told to publish to when a proxy in front forwards RTMP (or RTMPS) to this server's port:
   * rtmp://host:port and rtmps://host:port; default the site's host and --rtmp-port / --rtmps-port.
   */
  rtmpPublicUrl: string | null;
  rtmpsPublicUrl: string | null;
  /** s3://bucket/prefix: recordings go to an S3-compatible bucket instead of DATA_DIR/recordings. */
  recordingsUrl: string | null;
  s3Endpoint: string | null;
  s3Region: string | null;
  s3AccessKeyId: string | null;
  s3SecretAccessKey: string | null;
  /** Scheduled backups: how often (ms), where (a folder or s3://bucket/prefix), how many kept, under which passphrase. */
  backupEveryMs: number | null;
  backupTo: string | null;
  backupKeep: number;
  /** Besides the newest `backupKeep`: the last backup of each of this many days (UTC), today's included. */
  backupDays: number;
  backupPassphraseFile: string | null;
  /** From --backup-passphrase-file or DREADCAST_BACKUP_PASSPHRASE, read once at start. */
  backupPassphrase: string | null;
}
