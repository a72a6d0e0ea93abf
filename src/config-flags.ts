import type { Config } from "./config-shape.ts";

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
const FLAG_SPECS = {
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
} satisfies Record<string, FlagSpec>;
export const FLAGS: Record<string, FlagSpec> = FLAG_SPECS;

/**
 * The flags as the reference (docs/flags.md, made from this by `npm run docs:flags` and checked against it
 * by the tests) tells them: the default as a reader sees it, and what each does, in full. Markdown.
 */
export const FLAG_DOCS: Record<keyof typeof FLAG_SPECS, { default: string; doc: string }> = {
  port: { default: "3000", doc: "TCP port (0 picks a free one)" },
  host: { default: "0.0.0.0", doc: "address to bind" },
  "data-dir": {
    default: "./data",
    doc: "the SQLite database (uploaded images are kept in it), `secrets.key`, the recordings and the mail outbox: what `dreadcast backup` keeps (see [Backups and the restore drill](backups.md))",
  },
  "database-url": {
    default: "—",
    doc: "`postgres://user:pass@host:port/db`: the event's data on PostgreSQL instead of SQLite in the data directory (see [Moving to PostgreSQL](postgresql.md))",
  },
  "database-timeout": {
    default: "10",
    doc: "with `--database-url`: the server cancels a statement running longer (answered 503), and one with no answer at all a little later is given up and the connections opened anew (see [If PostgreSQL stops answering](postgresql.md)); 0 = no limit, at most 600",
  },
  "public-url": {
    default: "—",
    doc: "the address viewers use: links in e-mails come from it (without it, from the address bound, such as `http://localhost:3000`; never from a request's `Host` header); required with live Stripe keys; https turns on HSTS and Secure cookies",
  },
  "stripe-secret-key": {
    default: "—",
    doc: "Stripe secret key; without it payments run in demo mode. Live payments need `--public-url` (buyers' e-mails link to it): without it the server exits 2 naming the flag",
  },
  "stripe-publishable-key": { default: "—", doc: "Stripe publishable key for Stripe.js" },
  "stripe-webhook-secret": { default: "—", doc: "signing secret of the webhook at `/api/stripe/webhook`" },
  "stripe-api-url": { default: "—", doc: "talk to a Stripe-compatible API instead of Stripe (testing)" },
  "smtp-url": { default: "—", doc: "`smtp://` or `smtps://user:pass@host:port`; without it mail goes to `DATA_DIR/outbox`" },
  "mail-from": { default: "dreadcast@localhost", doc: "sender of the e-mails" },
  "enable-test-codes": { default: "off", doc: "issue `SCP-` test codes even with live payments" },
  "trust-proxy": {
    default: "—",
    doc: "comma-separated proxy addresses whose `X-Forwarded-For` is trusted, and on the RTMP ports their PROXY protocol header (v1 or v2: nginx's `proxy_protocol on;`) naming the publisher",
  },
  "allow-private-origins": {
    default: "off",
    doc: "let the HLS relay's origin be on this machine or its network (loopback, private, link-local addresses), as Owncast or MediaMTX beside dreadcast is; without it such an origin is refused when saved and at every fetch (see [Protecting the stream](stream.md))",
  },
  "redis-url": {
    default: "—",
    doc: "`redis://[user:pass@]host:port` (or `rediss://`): join a cluster of instances serving one event (needs `--database-url`; see [Running a cluster](cluster.md))",
  },
  "instance-name": { default: "host-pid", doc: "this instance's name in logs and metrics" },
  "internal-url": {
    default: "`http://<host>:<port>`",
    doc: "with `--redis-url`: where the other instances reach this one's HTTP port, for the built-in ingest's stream (default from `--host`, or the machine's name when it binds every address, and the port); see [Running a cluster](cluster.md)",
  },
  metrics: { default: "off", doc: "serve `/metrics` (Prometheus text format) to anyone who can reach it" },
  "metrics-token": { default: "—", doc: "serve `/metrics` only to requests with `Authorization: Bearer TOKEN` (16 characters or more)" },
  "rtmp-port": {
    default: "1935",
    doc: "the port OBS publishes RTMP to, open only while the stream source is **Built-in (OBS)**; 0 picks a free one (printed when it opens, and shown in the panel's server address). Must differ from `--port`",
  },
  "rtmps-port": { default: "1936", doc: "with `--tls-cert` and `--tls-key`: RTMP over TLS on this port too" },
  "tls-cert": {
    default: "—",
    doc: "PEM certificate chain for RTMPS (e.g. Let's Encrypt's `fullchain.pem`); read again each time the listener opens, and within a minute of the files changing (a renewal) for new connections, without a restart (a pair TLS refuses, or a file gone, keeps the one in use, with a warning). An unreadable file, or a certificate and key TLS does not accept together, exits 2",
  },
  "tls-key": { default: "—", doc: "PEM private key of `--tls-cert` (both or neither)" },
  "secret-key": {
    default: "`DATA_DIR/secrets.key`",
    doc: "32 bytes (64 hex digits or base64; `openssl rand -hex 32`) that seal the secrets kept in the database with AES-256-GCM: the team's TOTP secrets and OBS's stream key. Without it a key file is made in the data directory on first use. A cluster must give every instance the same one (`--redis-url` without it exits 2)",
  },
  "rtmp-public-url": {
    default: "the site's host and `--rtmp-port`/`--rtmps-port`",
    doc: "what the panel tells OBS to publish to, when a proxy in front forwards RTMP (nginx's `stream {}`, a cloud balancer) to this server's port: e.g. `rtmp://live.example.com:1935`",
  },
  "rtmps-public-url": {
    default: "the site's host and `--rtmp-port`/`--rtmps-port`",
    doc: "what the panel tells OBS to publish to, when a proxy in front forwards RTMP (nginx's `stream {}`, a cloud balancer) to this server's port: e.g. `rtmp://live.example.com:1935`",
  },
  "recordings-url": {
    default: "—",
    doc: "`s3://bucket/prefix`: keep the recordings (the replay) in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2…) through Bun's built-in S3 client, instead of `DATA_DIR/recordings`; a cluster needs it, as every instance serves the replay",
  },
  "s3-endpoint": { default: "AWS", doc: "the bucket's API address and region" },
  "s3-region": { default: "AWS", doc: "the bucket's API address and region" },
  "s3-access-key-id": { default: "`S3_…`/`AWS_…` env", doc: "the bucket's credentials" },
  "s3-secret-access-key": { default: "`S3_…`/`AWS_…` env", doc: "the bucket's credentials" },
  "backup-every": {
    default: "—",
    doc: "take the archive `dreadcast backup` takes every TIME (`30m`, `1h`, `1d`…) while serving, into `--backup-to` (see [Backups and the restore drill](backups.md)); needs a passphrase",
  },
  "backup-to": { default: "—", doc: "with `--backup-every`: a folder, or `s3://bucket/prefix` (reached with the `--s3-*` flags)" },
  "backup-keep": { default: "24", doc: "with `--backup-every`: keep the newest N there, deleting older ones" },
  "backup-days": { default: "7", doc: "with `--backup-every`: besides the newest N, keep the last backup of each of the last M days" },
  "backup-passphrase-file": { default: "—", doc: "with `--backup-every`: the archives' passphrase, the file's first line (or `DREADCAST_BACKUP_PASSPHRASE`)" },
  "replay-cache-mb": {
    default: "128",
    doc: "keep this many MiB of the replay's most watched files in memory (from their second request) and send them from there instead of the disk or the bucket; 0 keeps none (see [The night after](replay.md))",
  },
  "chat-batch-ms": {
    default: "100",
    doc: "while the chat is busy (30 lines a second or more), hold each line at most MS and send the lines several to a frame (`chat_batch`, each line packed as `[id, username, text, ms]`: see `src/contracts/chat-batch.ts`); 0 sends every line at once",
  },
};
