import type { Rng } from "../support/hardening.ts";

/** Generators of hostile input for the fuzz tests: every value comes from the seeded PRNG. */

const SAMPLE_TEXT = [
  "",
  " ",
  "   \t\n  ",
  "a",
  "Guest",
  "admin",
  "ａｄｍｉｎ",
  "SCP-FORCED-ENTRY",
  "SKP-2345-6789-ABCD-EFGH",
  "pi_123",
  "pi_" + "x".repeat(300),
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(document.cookie)>",
  '"><svg/onload=alert(1)>',
  "javascript:alert(1)",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; SELECT * FROM admins",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00%0d%0aSet-Cookie: x=1",
  "\r\nX-Injected: 1",
  "${jndi:ldap://example.invalid/a}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "\u0000\u0001\u0002\u001f",
  "\u200b\u200b\u200b",
  "\u202egnp.exe",
  "\u2800\u2800\u2800",
  "\ud800",
  "\udfff\ud800",
  "👨‍👩‍👧‍👦🔥💀",
  "Z̸̡̢̛̗̱̼͎̯̘̳̪̤̭̬̖̈́̆̈́̃̊̐͛͘͜͝a̸l̷g̴o̵",
  "مرحبا بالعالم",
  "𝕬𝖉𝖒𝖎𝖓",
  "\uFEFFbom",
  "test@example.com",
  "a@b.c",
  "not-an-email",
  "x".repeat(255),
  "1e308",
  "NaN",
  "-1",
  "0x10",
  "true",
  "null",
];

export function hostileString(rng: Rng): string {
  switch (rng.int(0, 9)) {
    case 0:
      return "A".repeat(rng.pick([100, 1000, 5000, 20_000, 60_000]));
    case 1: {
      // Random code points, some outside the BMP and some lone surrogates.
      let s = "";
      const n = rng.int(1, 80);
      for (let i = 0; i < n; i++) {
        const cp = rng.chance(0.1) ? rng.int(0xd800, 0xdfff) : rng.chance(0.2) ? rng.int(0x10000, 0x10ffff) : rng.int(0, 0x2fff);
        s += cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
      }
      return s;
    }
    case 2:
      return rng.pick(SAMPLE_TEXT) + rng.pick(SAMPLE_TEXT);
    default:
      return rng.pick(SAMPLE_TEXT);
  }
}

export function deepValue(rng: Rng): unknown {
  const depth = rng.pick([50, 500, 3000, 10_000]);
  let value: unknown = rng.chance(0.5) ? "x" : 1;
  const asArray = rng.chance(0.5);
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** A JSON-representable value of any type, usually the wrong one. */
export function hostileValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, 13)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1, 1.5, -0, 2 ** 53 + 1, 1e308, -1e308, 100, 99_999_999_999, 5000, 5001]);
    case 3:
      return [];
    case 4:
      return {};
    case 5:
      return depth < 2 ? Array.from({ length: rng.int(1, 5) }, () => hostileValue(rng, depth + 1)) : [1];
    case 6:
      return depth < 2 ? { [hostileString(rng).slice(0, 50)]: hostileValue(rng, depth + 1), __proto__x: 1 } : { a: 1 };
    case 7:
      return deepValue(rng);
    case 8:
      return JSON.parse('{"__proto__": {"isAdmin": true, "polluted": 1}}');
    default:
      return hostileString(rng);
  }
}

/** A valid body with one hostile change: a field dropped, retyped or added, or the whole body replaced. */
export function mutateBody(rng: Rng, valid: Record<string, unknown> | undefined): unknown {
  const body: Record<string, unknown> = { ...(valid ?? {}) };
  const keys = Object.keys(body);
  switch (rng.int(0, 9)) {
    case 0:
      return valid;
    case 1:
      if (keys.length) delete body[rng.pick(keys)];
      return body;
    case 2:
    case 3:
    case 4:
      if (keys.length) body[rng.pick(keys)] = hostileValue(rng);
      return body;
    case 5:
      if (keys.length) body[rng.pick(keys)] = hostileString(rng);
      return body;
    case 6:
      body[rng.pick(["extra", "isAdmin", "role", "__proto__", "constructor", "prototype", "id", "userId"])] = hostileValue(rng);
      return body;
    case 7:
      for (const k of keys) if (rng.chance(0.5)) body[k] = hostileValue(rng);
      return body;
    default:
      return hostileValue(rng);
  }
}

export function hostilePathSegment(rng: Rng): string {
  return rng.pick([
    "1",
    "0",
    "-1",
    "abc",
    "1e3",
    "1.5",
    "99999999999999999999999",
    "%00",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "..%2F..%2Fdreadcast.db",
    "1%3BDROP%20TABLE%20users",
    "%F0%9F%92%80",
    "%E0%A4%A",
    "x".repeat(2000),
    "NaN",
    "Infinity",
    "0x1",
    " 1",
    "%20",
  ]);
}

/** Cookie header values: garbage, oversized, duplicated, or a real session mixed in. */
export function hostileCookie(rng: Rng, real: string[]): string | undefined {
  switch (rng.int(0, 7)) {
    case 0:
      return undefined;
    case 1:
      return `dreadcast_viewer=${"f".repeat(64)}`;
    case 2:
      return `dreadcast_admin=${"0".repeat(64)}; dreadcast_viewer=x`;
    case 3:
      return `dreadcast_viewer=${"A".repeat(rng.pick([10, 4000]))}`;
    case 4:
      return `dreadcast_admin='; DROP TABLE admin_sessions; --`;
    case 5:
      return `dreadcast_viewer=%E0%A4%A; =; ;;; dreadcast_admin="\\"`;
    default:
      return real.length ? rng.pick(real) : undefined;
  }
}

export function hostileForwardedFor(rng: Rng, index: number): string {
  if (rng.chance(0.8)) return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  return rng.pick(["garbage", "", ",,,", "999.999.999.999", "::1, 127.0.0.1", "1.2.3.4, " + "9.9.9.9, ".repeat(100), "<script>", "unknown"]);
}
