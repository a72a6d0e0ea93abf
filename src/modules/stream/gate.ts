import type { AppContext } from "../../context.ts";
import { errorResponse, type ErrorAnswerer } from "../../http/error-answer.ts";
import { apiHeaders } from "../../http/security.ts";
import { serviceUnavailable, tooManyRequests } from "../../lib/errors.ts";
import { RateLimiter } from "../../lib/rate-limit.ts";
import { WatcherCheck, type Watcher } from "./watchers.ts";

/** Answers one request of a stream path (the relay, the built-in ingest's LL-HLS). */
export type StreamRoute = (request: Request) => Response | Promise<Response>;

/**
 * Stream requests one session may make per window: a low-latency player asks about ten a second (a playlist
 * and a part every 200 ms), a classic one a few every segment, so this is ten LL-HLS players or dozens of
 * classic ones behind one session (tabs, screens at a watch party).
 */
const REQUESTS_PER_SESSION = 1200;
const WINDOW_MS = 10_000;
/** How long the "Livestream active" switch is taken as read: a second, so a switch-off holds within one. */
const ACTIVE_TTL_MS = 1000;
const OFF_AIR_RETRY_S = 10;

/**
 * A stream path served to a viewer (or admin) allowed to watch, checked on every request — the viewer's
 * own session cookie, a refunded, revoked, banned or kicked viewer refused at once (WatcherCheck) — within
 * a rate per session. Failures are answered as the app answers them, with its headers: these paths are
 * served from the server's own route table (app.ts), past the framework's per-request pipeline, since
 * every viewer asks for them several times a second.
 */
export function watcherGate(ctx: AppContext, errorAnswer: ErrorAnswerer, serve: StreamRoute, options: { whileOffAir?: boolean } = {}): StreamRoute {
  const headers = apiHeaders(ctx.config);
  const watchers = new WatcherCheck(ctx);
  // Counted by this instance alone, as it serves its own viewers.
  const perSession = new RateLimiter(REQUESTS_PER_SESSION, WINDOW_MS);
  const refuse = (error: unknown) => errorResponse(errorAnswer(error), headers);
  // "Livestream active" off: viewers get nothing to play, also from an address they kept (the admin still
  // sees the preview). Read at most once a second, as every viewer asks several times a second.
  let active: { value: boolean; until: number } | null = null;
  const isActive = (): boolean | Promise<boolean> => {
    if (active && active.until >= Date.now()) return active.value;
    return ctx.settings.get().then(({ isActive: value }) => {
      active = { value, until: Date.now() + ACTIVE_TTL_MS };
      return value;
    });
  };
  const onAir = (watcher: Watcher): void | Promise<void> => {
    // The replay plays after the night, with the switch off: its route checks its own window instead.
    if (watcher.role === "admin" || options.whileOffAir) return;
    const check = (value: boolean) => {
      if (!value) throw serviceUnavailable("The livestream is off the air right now.", OFF_AIR_RETRY_S);
    };
    const value = isActive();
    return value instanceof Promise ? value.then(check) : check(value);
  };
  const served = (request: Request, watcher: Watcher) => {
    try {
      // Per pass (one device at a time holds it) or per admin, known from the verdict: no second cookie read.
      const wait = perSession.hit(watcher.role === "viewer" ? `v${watcher.accessCodeId}` : `a${watcher.username}`);
      if (wait > 0) throw tooManyRequests("Too many requests for the stream from this session. Please wait a moment.", wait);
      const answer = serve(request);
      return answer instanceof Promise ? answer.catch(refuse) : answer;
    } catch (error) {
      return refuse(error);
    }
  };
  return (request) => {
    try {
      // A verdict kept from an earlier request is at hand; a new one is looked up.
      const watcher = watchers.require(request);
      const admitted = (w: Watcher) => {
        const air = onAir(w);
        return air instanceof Promise ? air.then(() => served(request, w), refuse) : served(request, w);
      };
      return watcher instanceof Promise ? watcher.then(admitted, refuse) : admitted(watcher);
    } catch (error) {
      return refuse(error);
    }
  };
}
