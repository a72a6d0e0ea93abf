import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { LOCAL_KEYS, LOCAL_STORAGE_CHANGE, SESSION_KEYS, readLocal, readSession, removeLocal, removeSession, writeLocal, writeSession } from "./storage";

/** A Storage whose writes can be refused, as in private browsing or with a full quota. */
class FakeStorage {
  readonly data = new Map<string, string>();
  refuseWrites = false;
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (this.refuseWrites) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    this.data.set(key, value);
  }
  removeItem(key: string) {
    if (this.refuseWrites) throw new DOMException("The operation is insecure.", "SecurityError");
    this.data.delete(key);
  }
}

describe("storage helpers", () => {
  const saved = (globalThis as { window?: unknown }).window;
  let local: FakeStorage;
  let session: FakeStorage;
  let announced: string[];

  beforeEach(() => {
    local = new FakeStorage();
    session = new FakeStorage();
    announced = [];
    (globalThis as { window?: unknown }).window = {
      localStorage: local,
      sessionStorage: session,
      dispatchEvent: (event: CustomEvent) => {
        if (event.type === LOCAL_STORAGE_CHANGE) announced.push(String(event.detail));
        return true;
      },
    };
  });
  afterEach(() => {
    // Forget what the helpers kept in memory, through storage that accepts the removal.
    (globalThis as { window?: unknown }).window = { localStorage: new FakeStorage(), sessionStorage: new FakeStorage(), dispatchEvent: () => true };
    for (const key of Object.values(LOCAL_KEYS)) removeLocal(key);
    for (const key of Object.values(SESSION_KEYS)) removeSession(key);
    (globalThis as { window?: unknown }).window = saved;
  });

  test("writes go to the browser's storage and are announced to this tab", () => {
    writeLocal(LOCAL_KEYS.accessCode, "SKP-AAAA-BBBB-CCCC-DDDD");
    writeSession(SESSION_KEYS.accessVerified, "true");
    expect(local.getItem("accessCode")).toBe("SKP-AAAA-BBBB-CCCC-DDDD");
    expect(session.getItem("accessVerified")).toBe("true");
    expect(readLocal(LOCAL_KEYS.accessCode)).toBe("SKP-AAAA-BBBB-CCCC-DDDD");
    expect(announced).toEqual(["accessCode"]);
  });

  test("a refused write does not throw, and the value is still read back on this page", () => {
    local.refuseWrites = true;
    session.refuseWrites = true;
    expect(() => writeLocal(LOCAL_KEYS.accessCode, "SKP-AAAA-BBBB-CCCC-DDDD")).not.toThrow();
    expect(() => writeSession(SESSION_KEYS.username, "Nightjar")).not.toThrow();
    expect(local.data.size + session.data.size).toBe(0);
    expect(readLocal(LOCAL_KEYS.accessCode)).toBe("SKP-AAAA-BBBB-CCCC-DDDD");
    expect(readSession(SESSION_KEYS.username)).toBe("Nightjar");
    expect(announced).toEqual(["accessCode"]);
  });

  test("a refused remove does not throw, and the value is gone for this page", () => {
    local.data.set("username", "Old Name");
    local.refuseWrites = true;
    writeLocal(LOCAL_KEYS.username, "New Name");
    expect(readLocal(LOCAL_KEYS.username)).toBe("New Name");
    expect(() => removeLocal(LOCAL_KEYS.username)).not.toThrow();
    expect(() => removeSession(SESSION_KEYS.navHistory)).not.toThrow();
    expect(readLocal(LOCAL_KEYS.username)).toBeNull();
    expect(local.getItem("username")).toBe("Old Name");
  });

  test("once writes are accepted again the stored value takes over from the page's copy", () => {
    local.refuseWrites = true;
    writeLocal(LOCAL_KEYS.email, "first@example.com");
    local.refuseWrites = false;
    writeLocal(LOCAL_KEYS.email, "second@example.com");
    expect(local.getItem("email")).toBe("second@example.com");
    local.data.set("email", "from-another-tab@example.com");
    expect(readLocal(LOCAL_KEYS.email)).toBe("from-another-tab@example.com");
  });

  test("storage that cannot even be reached reads as empty and never throws", () => {
    (globalThis as { window?: unknown }).window = {
      get localStorage(): Storage {
        throw new DOMException("Access is denied for this document.", "SecurityError");
      },
      get sessionStorage(): Storage {
        throw new DOMException("Access is denied for this document.", "SecurityError");
      },
      dispatchEvent: () => true,
    };
    expect(readLocal(LOCAL_KEYS.accessCode)).toBeNull();
    expect(() => writeLocal(LOCAL_KEYS.accessCode, "MOD-AAAA-BBBB-CCCC-DDDD")).not.toThrow();
    expect(readLocal(LOCAL_KEYS.accessCode)).toBe("MOD-AAAA-BBBB-CCCC-DDDD");
    expect(() => removeLocal(LOCAL_KEYS.accessCode)).not.toThrow();
    expect(readLocal(LOCAL_KEYS.accessCode)).toBeNull();
    expect(readSession(SESSION_KEYS.navHistory)).toBeNull();
  });
});
