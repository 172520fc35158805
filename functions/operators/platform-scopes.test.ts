// The platform key's scopes: exactly four, and what a form or the database gives is read strictly (an unknown scope is
// refused or dropped, never granted). The scope each operation needs is tested with the operation table
// (functions/partner-api/operations.test.ts).
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PLATFORM_SCOPES, PlatformScopes, scopesOf, SCOPE_WORDS } from "./platform-scopes";
import { isPlatformKey, KEY_PATTERN, keyPrefix, makeApiKey, makePlatformKey, PLATFORM_KEY_PATTERN } from "../partner-api/keys";

describe("scopes", () => {
  it("are exactly payments, reversals, heartbeats and disputes, each said in words", () => {
    expect(PLATFORM_SCOPES).toEqual(["payments", "reversals", "heartbeats", "disputes"]);
    expect(Object.keys(SCOPE_WORDS).sort()).toEqual([...PLATFORM_SCOPES].sort());
  });

  it("from a form: at least one, only known ones, each once and in order", () => {
    expect(v.parse(PlatformScopes, ["disputes", "payments", "disputes"])).toEqual(["payments", "disputes"]);
    expect(v.safeParse(PlatformScopes, []).success).toBe(false);
    expect(v.safeParse(PlatformScopes, ["payments", "refunds"]).success).toBe(false);
    expect(v.safeParse(PlatformScopes, "payments").success).toBe(false);
  });

  it("from the database: unknown or broken JSON grants nothing", () => {
    expect(scopesOf('["heartbeats","payments"]')).toEqual(["payments", "heartbeats"]);
    expect(scopesOf('["admin","payments"]')).toEqual(["payments"]);
    expect(scopesOf('{"payments":true}')).toEqual([]);
    expect(scopesOf("not json")).toEqual([]);
  });
});

describe("platform keys look unlike a business's", () => {
  it("pp_platform_live_ / pp_platform_test_, a longer prefix that says so, and neither pattern takes the other", async () => {
    const platform = await makePlatformKey("Switch", "production");
    const business = await makeApiKey("Till", "bus_test");
    expect(platform.secret).toMatch(/^pp_platform_live_[0-9A-Za-z]{32}$/);
    expect((await makePlatformKey("Switch", "development")).secret).toMatch(/^pp_platform_test_/);
    expect(platform.row.prefix).toBe(platform.secret.slice(0, 21));
    expect(platform.row.id).toMatch(/^pkey_/);
    expect(business.row.prefix).toBe(business.secret.slice(0, 12));
    expect(keyPrefix("pp_test_ABCDEFGH")).toBe("pp_test_ABCD");
    expect(PLATFORM_KEY_PATTERN.test(platform.secret) && !KEY_PATTERN.test(platform.secret)).toBe(true);
    expect(KEY_PATTERN.test(business.secret) && !PLATFORM_KEY_PATTERN.test(business.secret)).toBe(true);
    expect(isPlatformKey(platform.secret)).toBe(true);
    expect(isPlatformKey(business.secret)).toBe(false);
    expect(platform.row.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
