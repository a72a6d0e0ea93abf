import type { Logger } from "../../src/lib/logger.ts";

/** A logger that keeps what the app said, as `warn: …`, `info: …`, `error: … <error's message>` lines. */
export function recordingLogger(lines: string[]): Logger {
  return {
    info: (message) => lines.push(`info: ${message}`),
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message, error) => lines.push(`error: ${message} ${error instanceof Error ? error.message : String(error ?? "")}`),
  };
}
