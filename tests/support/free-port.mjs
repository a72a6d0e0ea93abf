/** Plain JavaScript on node:net, for the Bun suites and the browser tests (run by Node) alike. */
import { createServer } from "node:net";

/** A port of 127.0.0.1 that nothing listened on a moment ago: for a server to come back on, or for one that is down. */
export async function freePort() {
  const probe = createServer();
  await new Promise((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => resolve(undefined));
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(() => resolve(undefined)));
  return typeof address === "object" && address ? address.port : 0;
}
