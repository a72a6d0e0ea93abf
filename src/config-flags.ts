import type { Config } from "./config.ts";

/**
 * The serve flags: each one's key in the config, how its value is read, and its line in `--help`. Parsed
 * and checked by `parseServeArgs` in config.ts.
 */
export type FlagKind =
  | "string"
  | "port"
  | "url"
  | "boolean"
  | "list"
  | "batch-ms"
  | "mebibytes"
  | "timeout-seconds"
  | "database-url"
  | "redis-url"
  | "name"
  | "token"
  | "file"
  | "key32"
  | "s3-url"
  | "duration"
  | "count";

export interface FlagSpec {
  key: keyof Config;
  kind: FlagKind;
  help: string;
  value?: string;
}

/** The serve flags, in the order `--help` lists them. Each is also DREADCAST_<NAME>. */
export const FLAGS: Record<string, FlagSpec> = {
  port: { key: "port", kind: "port", value: "N", help: "TCP port to listen on (default 3000; 0 picks a free one)" },
  host: { key: "host", kind: "string", value: "ADDR", help: "address to bind (default 0.0.0.0)" },
  "data-dir": { key: "dataDir", kind: "string", value: "DIR", help: "where the database and uploads live (default ./data)" },
  "database-url": {
    key: "databaseUrl",
    kind: "database-url",
    value: "URL",
    help: "PostgreSQL for the event's data, e.g. postgres://user:pass@db.example.com/dreadcast (default: SQLite in DATA_DIR)",
  },
  "database-timeout": {
    key: "databaseTimeoutMs",
    kind: "timeout-seconds",
    value: "S",
    help: "with --database-url: a statement taking longer is cancelled and answered 503; if PostgreSQL stops answering at all, its connections are opened anew (default 10; 0 = no limit)",
  },
  "public-url": { key: "publicUrl", kind: "url", value: "URL", help: "the address viewers use, e.g. https://live.example.com" },
  "stripe-secret-key": { key: "stripeSecretKey", kind: "string", value: "KEY", help: "Stripe secret key (sk_...); without it payments run in demo mode; needs --public-url" },
  "stripe-publishable-key": { key: "stripePublishableKey", kind: "string", value: "KEY", help: "Stripe publishable key (pk_...)" },
  "stripe-webhook-secret": { key: "stripeWebhookSecret", kind: "string", value: "SECRET", help: "signing secret of the Stripe webhook (whsec_...)" },
  "stripe-api-url": { key: "stripeApiUrl", kind: "url", value: "URL", help: "talk to a Stripe-compatible API at URL instead of Stripe (testing)" },
  "smtp-url": { key: "smtpUrl", kind: "url", value: "URL", help: "SMTP server, e.g. smtps://user:pass@mail.example.com; without it mail goes to DATA_DIR/outbox" },
  "mail-from": { key: "mailFrom", kind: "string", value: "ADDR", help: "sender address of the e-mails (default dreadcast@localhost)" },
  "enable-test-codes": { key: "enableTestCodes", kind: "boolean", help: "issue SCP- test codes even with live payments" },
  "trust-proxy": { key: "trustProxy", kind: "list", value: "IPS", help: "comma-separated proxy addresses whose X-Forwarded-For is trusted" },
  "allow-private-origins": {
    key: "allowPrivateOrigins",
    kind: "boolean",
    help: "let the HLS relay's origin be on this machine or its private network (e.g. MediaMTX on 127.0.0.1); refused otherwise",
  },
  "redis-url": {
    key: "redisUrl",
    kind: "redis-url",
    value: "URL",
    help: "join a cluster of instances serving one event through Redis, e.g. redis://cache.internal:6379 (needs --database-url)",
  },
  "instance-name": { key: "instanceName", kind: "name", value: "NAME", help: "this instance's name in logs and metrics (default: host name and process id)" },
  "internal-url": {
    key: "internalUrl",
    kind: "url",
    value: "URL",
    help: "with --redis-url: where the other instances reach this one's HTTP port, e.g. http://10.0.0.5:3000 (default http://<--host, or this machine's name>:<port>)",
  },
  metrics: { key: "metrics", kind: "boolean", help: "serve /metrics in Prometheus text format (off by default)" },
  "metrics-token": { key: "metricsToken", kind: "token", value: "TOKEN", help: "serve /metrics to requests with 'Authorization: Bearer TOKEN'" },
  "rtmp-port": { key: "rtmpPort", kind: "port", value: "N", help: "port OBS publishes RTMP to while the stream source is Built-in (OBS) (default 1935; 0 picks a free one)" },
  "rtmps-port": { key: "rtmpsPort", kind: "port", value: "N", help: "with --tls-cert and --tls-key: port for RTMPS, RTMP over TLS (default 1936)" },
  "tls-cert": { key: "tlsCert", kind: "file", value: "FILE", help: "PEM certificate chain for RTMPS (with --tls-key)" },
  "tls-key": { key: "tlsKey", kind: "file", value: "FILE", help: "PEM private key of --tls-cert" },
  "secret-key": {
    key: "secretKey",
    kind: "key32",
    value: "KEY",
    help: "32-byte key, as 64 hex digits or base64, sealing the secrets kept in the database (two-factor secrets, the stream key); default: DATA_DIR/secrets.key, made on first use. Every instance of a cluster needs the same one",
  },
  "rtmp-public-url": {
    key: "rtmpPublicUrl",
    kind: "url",
    value: "URL",
    help: "the RTMP address OBS is given when a proxy forwards it here, e.g. rtmp://live.example.com:1935 (default: the site's host and --rtmp-port)",
  },
  "rtmps-public-url": {
    key: "rtmpsPublicUrl",
    kind: "url",
    value: "URL",
    help: "the same for RTMPS, e.g. rtmps://live.example.com:443 (default: the site's host and --rtmps-port)",
  },
  "recordings-url": {
    key: "recordingsUrl",
    kind: "s3-url",
    value: "URL",
    help: "keep the recordings (the replay) in an S3-compatible bucket, e.g. s3://my-bucket/dreadcast, instead of DATA_DIR/recordings; what a cluster needs",
  },
  "s3-endpoint": {
    key: "s3Endpoint",
    kind: "url",
    value: "URL",
    help: "with --recordings-url: the S3 API's address (default AWS; e.g. https://<account>.r2.cloudflarestorage.com)",
  },
  "s3-region": { key: "s3Region", kind: "string", value: "REGION", help: "with --recordings-url: the bucket's region (default from S3_REGION or AWS_REGION)" },
  "s3-access-key-id": { key: "s3AccessKeyId", kind: "string", value: "ID", help: "with --recordings-url: the access key (default from S3_ACCESS_KEY_ID or AWS_ACCESS_KEY_ID)" },
  "s3-secret-access-key": {
    key: "s3SecretAccessKey",
    kind: "string",
    value: "KEY",
    help: "with --recordings-url: its secret (default from S3_SECRET_ACCESS_KEY or AWS_SECRET_ACCESS_KEY)",
  },
  "backup-every": {
    key: "backupEveryMs",
    kind: "duration",
    value: "TIME",
    help: "take a backup (the archive of `dreadcast backup`) every TIME, e.g. 1h, 30m or 1d, into --backup-to; needs a passphrase",
  },
  "backup-to": { key: "backupTo", kind: "string", value: "DIR|URL", help: "with --backup-every: a folder, or s3://bucket/prefix (the --s3-* flags reach it)" },
  "backup-keep": { key: "backupKeep", kind: "count", value: "N", help: "with --backup-every: keep the newest N backups there, deleting older ones (default 24)" },
  "backup-days": {
    key: "backupDays",
    kind: "count",
    value: "M",
    help: "with --backup-every: besides the newest --backup-keep, keep the last backup of each of the last M days (default 7)",
  },
  "backup-passphrase-file": {
    key: "backupPassphraseFile",
    kind: "file",
    value: "FILE",
    help: "with --backup-every: the archives' passphrase, the file's first line (or DREADCAST_BACKUP_PASSPHRASE)",
  },
  "replay-cache-mb": {
    key: "replayCacheBytes",
    kind: "mebibytes",
    value: "N",
    help: "keep this many MiB of the replay's most watched files in memory, sent from there instead of the disk or the bucket (default 128; 0 = none)",
  },
  "chat-batch-ms": {
    key: "chatBatchMs",
    kind: "batch-ms",
    value: "MS",
    help: "while chat is busy, send its lines several to a frame, each held at most MS (default 100; 0 = off)",
  },
};
