import { afterAll } from "bun:test";
import { dropTestDatabases } from "./postgres.ts";

// The PostgreSQL databases the tests of this process made are dropped when they are done.
afterAll(() => dropTestDatabases());
