import { expect, test } from "bun:test";
import { createQueryClient } from "./query-client";

test("queries load once: no refetch on focus or interval, always fresh, no retry", () => {
  const queries = createQueryClient().getDefaultOptions().queries;
  expect(queries?.refetchOnWindowFocus).toBe(false);
  expect(queries?.refetchInterval).toBe(false);
  expect(queries?.staleTime).toBe(Infinity);
  expect(queries?.retry).toBe(false);
});
