/** Polls until `check` returns a value (or throws after timeoutMs, naming `what` was awaited). */
export async function eventually<T>(check: () => T | null | undefined | false | Promise<T | null | undefined | false>, timeoutMs = 5000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await Bun.sleep(25);
  }
}
