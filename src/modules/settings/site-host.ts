import type { Config } from "../../config.ts";

/**
 * This site's host name as the operator configured it: --public-url's host, else the address it listens
 * on (localhost for a wildcard address). Never a request's Host header: it is saved into the stream's
 * player address (Twitch's `parent`) that every viewer then loads.
 */
export function configuredSiteHost(config: Pick<Config, "publicUrl" | "host">): string {
  if (config.publicUrl) return new URL(config.publicUrl).hostname;
  return ["0.0.0.0", "::", ""].includes(config.host) ? "localhost" : config.host;
}
