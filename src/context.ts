import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Logger } from "./lib/logger.ts";
import { AdminService } from "./modules/admin/service.ts";

/** What every feature module is built from: the config, the database, the log and the services. */
export interface AppContext {
  config: Config;
  db: Database;
  log: Logger;
  admins: AdminService;
  /** Stops timers and workers a module started; run in reverse order on shutdown. */
  disposers: (() => void | Promise<void>)[];
}

export function createContext(config: Config, db: Database, log: Logger): AppContext {
  return { config, db, log, admins: new AdminService(db), disposers: [] };
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
