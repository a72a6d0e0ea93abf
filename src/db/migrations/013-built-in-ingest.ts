import type { Migration } from "../migrate.ts";

export const builtInIngest: Migration = {
  version: 13,
  name: "the built-in ingest: its stream source kind and stream key",
  // SQLite cannot change a CHECK in place: the one-row table is made anew with the "ingest" kind allowed.
  // `ingest_key` holds OBS's stream key: its SHA-256 (what a publish is checked against, on any instance)
  // and the key sealed with AES-256-GCM under a key kept outside the database (src/modules/ingest/key.ts).
  sqlite: `
        CREATE TABLE stream_source_next (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          kind TEXT NOT NULL CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls', 'ingest')),
          fields TEXT NOT NULL,
          watermark INTEGER NOT NULL CHECK (watermark IN (0, 1)),
          updated_at INTEGER NOT NULL
        );
        INSERT INTO stream_source_next (id, kind, fields, watermark, updated_at) SELECT id, kind, fields, watermark, updated_at FROM stream_source;
        DROP TABLE stream_source;
        ALTER TABLE stream_source_next RENAME TO stream_source;
        CREATE TABLE ingest_key (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          key_hash TEXT NOT NULL,
          sealed TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
      `,
  postgres: `
        ALTER TABLE stream_source DROP CONSTRAINT stream_source_kind_check;
        ALTER TABLE stream_source ADD CONSTRAINT stream_source_kind_check CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls', 'ingest'));
        CREATE TABLE ingest_key (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          key_hash TEXT NOT NULL,
          sealed TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
      `,
};
