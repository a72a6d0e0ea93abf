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
}

export function createContext(config: Config, db: Database, log: Logger): AppContext {
  return { config, db, log, admins: new AdminService(db) };
}
