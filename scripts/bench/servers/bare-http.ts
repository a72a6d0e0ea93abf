/**
 * A bare Bun.serve answering every request with one fixed JSON body (argv[2]): what the runtime can do for
 * GET /api/livestream-settings with no framework, no cookies, no database. Prints `bare listening on <url>`.
 */
const body = process.argv[2] ?? "{}";
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch() {
    return new Response(body, { headers: { "content-type": "application/json" } });
  },
});
console.log(`bare listening on http://127.0.0.1:${server.port}`);

export {};
