import type { Config } from "../../config.ts";

/** The address put in e-mail links: --public-url, else the origin the request came to. */
export function siteUrlFor(config: Config, request: Request): string {
  return config.publicUrl ?? new URL(request.url).origin;
}
