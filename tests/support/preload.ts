import { afterAll, setDefaultTimeout } from "bun:test";
import { dropTestDatabases } from "./postgres.ts";

// Each test and hook has 30 s, for every file of the run: the suites run side by side on two cores with
// ffmpeg, PostgreSQL and Redis, where a test that takes 1 s alone can take 5 (bunfig.toml cannot set this).
setDefaultTimeout(30_000);

// The PostgreSQL databases the tests of this process made are dropped when they are done.
afterAll(() => dropTestDatabases());
