import type { Migration } from "../migrate.ts";

export const streamSource: Migration = {
  version: 2,
  name: "stream source",
  // One row: the kind of source and its fields as JSON (secrets included; the API never returns them).
  // The embed kind's address stays in livestream_settings.embed_url, which the settings form edits too.
  sqlite: `
        CREATE TABLE stream_source (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          kind TEXT NOT NULL CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls')),
          fields TEXT NOT NULL,
          watermark INTEGER NOT NULL CHECK (watermark IN (0, 1)),
          updated_at INTEGER NOT NULL
        );
      `,
  postgres: `
        CREATE TABLE stream_source (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          kind TEXT NOT NULL CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls')),
          fields TEXT NOT NULL,
          watermark INTEGER NOT NULL CHECK (watermark IN (0, 1)),
          updated_at BIGINT NOT NULL
        );
      `,
  async seed(q) {
    await q.run("INSERT INTO stream_source (id, kind, fields, watermark, updated_at) VALUES (1, 'embed', '{}', 0, ?)", Date.now());
  },
};
