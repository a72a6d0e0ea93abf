import { describe, expect, test } from "bun:test";
import { readCookie, sessionCookie } from "./cookies.ts";

const withCookie = (header?: string) => new Request("http://localhost/", header === undefined ? {} : { headers: { cookie: header } });

describe("readCookie", () => {
  test("finds the named cookie among others, with or without spaces", () => {
    expect(readCookie(withCookie("a=1; dreadcast_viewer=abc; b=2"), "dreadcast_viewer")).toBe("abc");
    expect(readCookie(withCookie("dreadcast_viewer=abc;b=2"), "dreadcast_viewer")).toBe("abc");
    expect(readCookie(withCookie("b=2;dreadcast_viewer=abc"), "dreadcast_viewer")).toBe("abc");
  });

  test("a name that only ends or starts like ours is not ours", () => {
    expect(readCookie(withCookie("xdreadcast_viewer=evil; dreadcast_viewer_old=evil"), "dreadcast_viewer")).toBeUndefined();
    expect(readCookie(withCookie("xdreadcast_viewer=evil; dreadcast_viewer=good"), "dreadcast_viewer")).toBe("good");
  });

  test("no header, an empty one, a cookie without a value or a quoted value", () => {
    expect(readCookie(withCookie(), "dreadcast_viewer")).toBeUndefined();
    expect(readCookie(withCookie(""), "dreadcast_viewer")).toBeUndefined();
    expect(readCookie(withCookie("dreadcast_viewer"), "dreadcast_viewer")).toBeUndefined();
    expect(readCookie(withCookie("dreadcast_viewer="), "dreadcast_viewer")).toBe("");
    expect(readCookie(withCookie('dreadcast_viewer="abc"'), "dreadcast_viewer")).toBe("abc");
  });

  test("the first of two cookies with the same name wins, as browsers send the most specific first", () => {
    expect(readCookie(withCookie("dreadcast_viewer=first; dreadcast_viewer=second"), "dreadcast_viewer")).toBe("first");
  });
});

describe("sessionCookie", () => {
  test("HttpOnly, SameSite=Lax, the whole site, and Secure only when asked", () => {
    expect(sessionCookie("dreadcast_admin", "abc", { maxAge: 3600, secure: false })).toBe("dreadcast_admin=abc; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax");
    expect(sessionCookie("dreadcast_admin", "abc", { maxAge: 3600, secure: true })).toEndWith("; Secure");
  });

  test("max age 0 removes the cookie, with a past expiry for old browsers", () => {
    expect(sessionCookie("dreadcast_admin", "", { maxAge: 0, secure: false })).toBe(
      "dreadcast_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    );
  });
});
