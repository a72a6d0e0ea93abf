import { describe, expect, test } from "bun:test";
import { clusterNamespace } from "./redis-cluster.ts";

describe("cluster namespace", () => {
  test("one namespace per event database, never showing the password", () => {
    const a = clusterNamespace("postgres://app:secret@db.internal:5432/event_one");
    expect(a).toMatch(/^dreadcast:[0-9a-z]+$/);
    expect(a).not.toContain("secret");
    expect(clusterNamespace("postgres://other:pass@db.internal/event_one")).toBe(a);
    expect(clusterNamespace("postgres://app:secret@db.internal:5432/event_two")).not.toBe(a);
    expect(clusterNamespace("postgres://app:secret@db2.internal:5432/event_one")).not.toBe(a);
  });
});
