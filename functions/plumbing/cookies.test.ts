// The one cookie reader and writer (functions/plumbing/cookies.ts): the names, the
// attributes every portal cookie carries, and reading one cookie among others.
import { describe, expect, it } from "vitest";
import { clearCookie, cookieName, readCookie, serializeCookie, setCookieHeaders } from "./cookies";

const HTTPS = "https://portal.example.com/merchants";
const LOCAL = "http://localhost:8787/merchants";

function requestWith(url: string, cookie?: string): Request {
  return new Request(url, cookie === undefined ? {} : { headers: { Cookie: cookie } });
}

describe("cookieName", () => {
  it("is __Host- prefixed on https and plain on http://localhost", () => {
    expect(cookieName(requestWith(HTTPS), "pp_session")).toBe("__Host-pp_session");
    expect(cookieName(requestWith(LOCAL), "pp_session")).toBe("pp_session");
  });
});

describe("serializeCookie and clearCookie", () => {
  it("on https: __Host- name, Path=/, HttpOnly, SameSite=Lax, Max-Age and Secure", () => {
    expect(serializeCookie(requestWith(HTTPS), "pp_flash", "a.b.c", 60)).toBe("__Host-pp_flash=a.b.c; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure");
  });

  it("on http://localhost: the plain name and no Secure (the browser would drop a Secure cookie there)", () => {
    expect(serializeCookie(requestWith(LOCAL), "pp_flash", "a.b.c", 60)).toBe("pp_flash=a.b.c; Path=/; HttpOnly; SameSite=Lax; Max-Age=60");
  });

  it("a Max-Age is whole seconds and never negative", () => {
    expect(serializeCookie(requestWith(LOCAL), "pp_x", "v", 899.7)).toMatch(/; Max-Age=899$/);
    expect(serializeCookie(requestWith(LOCAL), "pp_x", "v", -5)).toMatch(/; Max-Age=0$/);
  });

  it("clearing empties the value with Max-Age=0 under the same name and attributes", () => {
    expect(clearCookie(requestWith(HTTPS), "pp_session")).toBe("__Host-pp_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    expect(clearCookie(requestWith(LOCAL), "pp_session")).toBe("pp_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });

  it("refuses a value that could break out of the header or into another attribute", () => {
    for (const value of ["a;b", "a b", "a,b", 'a"b', "a\\b", "a\r\nSet-Cookie: x=1", "Ɔhemaa"]) {
      expect(() => serializeCookie(requestWith(HTTPS), "pp_x", value, 60), value).toThrow(/cannot carry/);
    }
  });
});

describe("readCookie", () => {
  it("finds the named cookie among others, whatever the spacing, and keeps '=' inside the value", () => {
    const request = requestWith(LOCAL, "theme=dark;pp_session=aa.bb.cc==;  pp_flash=x.y.z ; other=1");
    expect(readCookie(request, "pp_session")).toBe("aa.bb.cc==");
    expect(readCookie(request, "pp_flash")).toBe("x.y.z");
  });

  it("reads the name of the request's origin only: on https the plain name is somebody else's cookie", () => {
    const cookie = "pp_session=planted; __Host-pp_session=genuine";
    expect(readCookie(requestWith(HTTPS, cookie), "pp_session")).toBe("genuine");
    expect(readCookie(requestWith(LOCAL, cookie), "pp_session")).toBe("planted");
    expect(readCookie(requestWith(HTTPS, "pp_session=planted"), "pp_session")).toBeUndefined();
  });

  it("does not take a cookie whose name only ends or starts with the one asked for", () => {
    expect(readCookie(requestWith(LOCAL, "xpp_session=1; pp_session_old=2"), "pp_session")).toBeUndefined();
  });

  it("is undefined without a Cookie header, and empty for a cleared cookie", () => {
    expect(readCookie(requestWith(LOCAL), "pp_session")).toBeUndefined();
    expect(readCookie(requestWith(LOCAL, "pp_session="), "pp_session")).toBe("");
  });

  it("writes what it reads back", () => {
    const set = serializeCookie(requestWith(HTTPS), "pp_return", "h.p.s", 60);
    expect(readCookie(requestWith(HTTPS, set.split(";")[0]), "pp_return")).toBe("h.p.s");
  });
});

describe("setCookieHeaders", () => {
  it("keeps each cookie its own Set-Cookie header, next to the other headers", () => {
    const headers = setCookieHeaders(["a=1; Path=/", "b=2; Path=/"], { "Cache-Control": "no-store" });
    expect(headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(headers.get("Cache-Control")).toBe("no-store");
  });
});
