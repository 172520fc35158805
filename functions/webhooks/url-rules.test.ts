// Webhooks going out: where a webhook may go, how it is
// signed and verified, and how long failures are retried.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { configOf, ConfigError } from "../env";
import { nextStep, retrySchedule, webhookRetryDelaySeconds } from "./backoff";
import { envelopeOf, signingSecrets } from "./delivery";
import { disabledReason } from "./notify";
import { hmacSha256Hex, newWebhookSecret, signatureHeader, verifySignature } from "./signing";
import { checkWebhookUrl, isForbiddenIPv4, isForbiddenIPv6, parseIPv6 } from "./url-rules";

describe("webhook URL rules", () => {
  const refused = (url: string, environment: "development" | "test" | "production" = "production") => {
    const verdict = checkWebhookUrl(url, environment);
    return verdict.ok ? null : verdict.reason;
  };

  it.each([
    "https://hooks.example.com/partners",
    "https://hooks.example.com:8443/partners?x=1",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://api.paystack.co./webhooks",
  ])("accepts the public https URL %s", (url) => {
    expect(refused(url)).toBeNull();
  });

  it("gives the URL back as the parser writes it (what is stored and fetched)", () => {
    expect(checkWebhookUrl("  HTTPS://Hooks.Example.COM/a b ", "production")).toEqual({ ok: true, url: "https://hooks.example.com/a%20b" });
  });

  it.each(["http://hooks.example.com/x", "ftp://hooks.example.com/x", "javascript:alert(1)", "file:///etc/passwd", "hooks.example.com/x", "", " "])(
    "refuses %j: not an https URL",
    (url) => {
      expect(refused(url)).not.toBeNull();
    },
  );

  it("takes http://localhost (and https://localhost) in development only", () => {
    expect(refused("http://localhost:8787/hook", "development")).toBeNull();
    expect(refused("https://localhost/hook", "development")).toBeNull();
    expect(refused("http://LOCALHOST./hook", "development")).toBeNull();
    for (const environment of ["test", "production"] as const) {
      expect(refused("http://localhost:8787/hook", environment)).not.toBeNull();
      expect(refused("https://localhost/hook", environment)).not.toBeNull();
    }
    // Development allows the name localhost, not every loopback or private address.
    expect(refused("http://127.0.0.1:8787/hook", "development")).not.toBeNull();
    expect(refused("https://127.0.0.1/hook", "development")).not.toBeNull();
    expect(refused("http://[::1]:8787/hook", "development")).not.toBeNull();
    expect(refused("http://hooks.example.com/hook", "development")).not.toBeNull();
  });

  it.each([
    "https://user@hooks.example.com/x",
    "https://user:pass@hooks.example.com/x",
    "https://:pass@hooks.example.com/x",
    "https://@hooks.example.com/x",
    "http://user@localhost/x",
  ])("refuses userinfo: %s", (url) => {
    expect(refused(url, "development")).toMatch(/user name or password/);
  });

  it.each([
    // loopback 127.0.0.0/8, in every IPv4 spelling the URL parser understands
    "127.0.0.1",
    "127.1.2.3",
    "127.255.255.255",
    "0x7f.0.0.1",
    "0177.0.0.1",
    "2130706433",
    "127.1",
    // 0.0.0.0/8
    "0.0.0.0",
    "0",
    "0.1.2.3",
    // private
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.0.1",
    "192.168.255.255",
    // link-local (cloud metadata)
    "169.254.169.254",
    "169.254.0.1",
    // shared address space (carrier-grade NAT)
    "100.64.0.1",
    "100.127.255.254",
    // multicast, reserved, broadcast, documentation, benchmarking
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.10",
    "198.51.100.1",
    "203.0.113.5",
    "198.18.0.1",
    "192.0.0.8",
  ])("refuses the IPv4 address %s", (host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/private, loopback or link-local/);
    expect(refused(`https://${host}:8443/hook`, "development")).not.toBeNull();
  });

  it.each(["172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.0.1", "11.0.0.1", "192.169.0.1", "1.1.1.1"])(
    "accepts %s, just outside the refused ranges",
    (host) => {
      expect(refused(`https://${host}/hook`)).toBeNull();
    },
  );

  it.each([
    "::1",
    "::",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:8.8.8.8",
    "::ffff:0:8.8.8.8",
    "::127.0.0.1",
    "::8.8.8.8",
    "fc00::1",
    "fd12:3456:789a::1",
    "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "fe80::1",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::7f00:1",
    "2002:0a00:0001::1",
    "2002:7f00:1::",
    "100::1",
  ])("refuses the IPv6 address %s", (address) => {
    expect(refused(`https://[${address}]/hook`)).toMatch(/private, loopback or link-local/);
  });

  it.each(["2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "64:ff9b::808:808", "2002:808:808::1"])("accepts the public IPv6 address %s", (address) => {
    expect(refused(`https://[${address}]/hook`)).toBeNull();
  });

  it.each([
    "localhost",
    "foo.localhost",
    "printer.local",
    "api.internal",
    "metadata.google.internal",
    "db.corp",
    "nas.home.arpa",
    "router.lan",
    "box.localdomain",
    "intranet",
    "hooks",
  ])("refuses the host name %s outside development", (host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public host/);
  });

  it("refuses names ending in a private suffix with a trailing dot or in capitals", () => {
    expect(refused("https://API.INTERNAL./hook")).not.toBeNull();
    expect(refused("https://x.Local/hook")).not.toBeNull();
  });

  it("refuses a URL too long to store", () => {
    expect(refused(`https://hooks.example.com/${"a".repeat(2000)}`)).toMatch(/under 2000/);
  });

  it("parses IPv6 the way the ranges need", () => {
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1::2::3")).toBeNull();
    expect(parseIPv6("fe80::1%eth0")).toBeNull();
    expect(isForbiddenIPv6("not an address")).toBe(true);
    expect(isForbiddenIPv4("1.2.3")).toBe(true);
  });
});

describe("webhook signatures", () => {
  it("is HMAC-SHA256 as hex (RFC 4231 test case 2)", async () => {
    expect(await hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });

  it("signs timestamp + '.' + body, as a receiver with Node's crypto computes it", async () => {
    const body = '{"id":"evt_1","type":"payment.succeeded","created":"2024-11-23T08:20:00.000Z","data":{"amount":1500,"name":"Ɔkɔdeɛ 🦅"}}';
    const secret = "whsec_known";
    const expected = createHmac("sha256", secret).update(`1732350000.${body}`).digest("hex");
    expect(await signatureHeader([secret], 1732350000, body)).toBe(`t=1732350000,v1=${expected}`);
    // The same vector, fixed: names in Akan letters and emoji are signed as UTF-8.
    expect(expected).toBe("99b78fab3c85d3b2acc9437f2c9f2695bde2defbd678959c9147cb314f361411");
  });

  it("carries a second v1= for the previous secret while a roll is under way", async () => {
    const header = await signatureHeader(["whsec_new", "whsec_old"], 1732350000, "{}");
    const parts = header.split(",");
    expect(parts).toHaveLength(3);
    expect(parts[1]).toBe(`v1=${createHmac("sha256", "whsec_new").update("1732350000.{}").digest("hex")}`);
    expect(parts[2]).toBe(`v1=${createHmac("sha256", "whsec_old").update("1732350000.{}").digest("hex")}`);
    expect(await verifySignature(header, "{}", "whsec_old", { nowSeconds: 1732350000 })).toEqual({ ok: true });
    expect(await verifySignature(header, "{}", "whsec_new", { nowSeconds: 1732350000 })).toEqual({ ok: true });
  });

  it("signs with the previous secret only until it expires", () => {
    const delivery = { secret: "whsec_new", previousSecret: "whsec_old", previousSecretExpiresAt: 1_000_000 };
    expect(signingSecrets(delivery, 999_999)).toEqual(["whsec_new", "whsec_old"]);
    expect(signingSecrets(delivery, 1_000_000)).toEqual(["whsec_new"]);
    expect(signingSecrets({ secret: "whsec_a", previousSecret: null, previousSecretExpiresAt: null }, 0)).toEqual(["whsec_a"]);
  });

  it("lets a receiver refuse a wrong secret, a changed body, an old or future timestamp and a malformed header", async () => {
    const body = '{"id":"evt_2"}';
    const now = 1732350000;
    const header = await signatureHeader(["whsec_right"], now, body);
    expect(await verifySignature(header, body, "whsec_right", { nowSeconds: now + 10 })).toEqual({ ok: true });
    expect(await verifySignature(header, body, "whsec_wrong", { nowSeconds: now })).toEqual({ ok: false, reason: "no matching signature" });
    expect(await verifySignature(header, '{"id":"evt_3"}', "whsec_right", { nowSeconds: now })).toEqual({ ok: false, reason: "no matching signature" });
    expect(await verifySignature(header, body, "whsec_right", { nowSeconds: now + 301 })).toEqual({ ok: false, reason: "too old" });
    expect(await verifySignature(header, body, "whsec_right", { nowSeconds: now - 301 })).toEqual({ ok: false, reason: "too old" });
    // The timestamp is signed: moving it forward breaks the signature.
    const replayed = header.replace(`t=${now}`, `t=${now + 3600}`);
    expect(await verifySignature(replayed, body, "whsec_right", { nowSeconds: now + 3600 })).toEqual({ ok: false, reason: "no matching signature" });
    expect(await verifySignature("v1=abc", body, "whsec_right", { nowSeconds: now })).toEqual({ ok: false, reason: "malformed" });
    expect(await verifySignature(`t=${now}`, body, "whsec_right", { nowSeconds: now })).toEqual({ ok: false, reason: "malformed" });
  });

  it("makes secrets of 32 random bytes, never the same twice", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it("sends the envelope { id, type, created, data } with the stored payload as data", () => {
    const body = envelopeOf({
      eventId: "evt_x",
      eventType: "transfer.approved",
      eventAt: Date.UTC(2026, 10, 23, 8, 0, 0),
      payload: '{"transfer":{"name":"Ŋ"}}',
      // An event written before payload versions (migration 0037), to an endpoint of that version: sent as stored.
      payloadVersion: "2026-11-27",
      payloadExtra: null,
      endpointVersion: "2026-11-27",
    });
    expect(JSON.parse(body)).toEqual({ id: "evt_x", type: "transfer.approved", created: "2026-11-23T08:00:00.000Z", data: { transfer: { name: "Ŋ" } } });
  });
});

describe("webhook retries", () => {
  const defaults = configOf({}).webhooks;

  it("doubles from the base delay up to the cap", () => {
    const settings = { retryBaseSeconds: 60, retryMaxSeconds: 3600 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((attempt) => webhookRetryDelaySeconds(attempt, settings))).toEqual([
      60, 120, 240, 480, 960, 1920, 3600, 3600, 3600,
    ]);
  });

  it("retries for 24 hours by default, then stops", () => {
    expect(defaults).toMatchObject({ retryBaseSeconds: 60, retryMaxSeconds: 3600, retryWindowSeconds: 86_400, timeoutMs: 10_000 });
    const waits = retrySchedule(defaults);
    expect(waits.slice(0, 7)).toEqual([60, 120, 240, 480, 960, 1920, 3600]);
    expect(waits).toHaveLength(28);
    const lastAttempt = waits.reduce((sum, wait) => sum + wait, 0);
    expect(lastAttempt).toBeLessThanOrEqual(86_400);
    expect(lastAttempt + 3600).toBeGreaterThan(86_400);
  });

  it("gives up when the next attempt would fall after the window", () => {
    const settings = { retryBaseSeconds: 1, retryMaxSeconds: 2, retryWindowSeconds: 5 };
    expect(nextStep(1, 0, 0, settings)).toEqual({ retry: true, delaySeconds: 1, at: 1000 });
    expect(nextStep(3, 0, 3000, settings)).toEqual({ retry: true, delaySeconds: 2, at: 5000 });
    expect(nextStep(4, 0, 3001, settings)).toEqual({ retry: false });
    expect(retrySchedule(settings)).toEqual([1, 2, 2]);
  });

  it("wrangler.toml lets the queue redeliver more often than the default schedule needs", () => {
    const toml = readFileSync(resolve(import.meta.dirname, "../../wrangler.toml"), "utf8");
    const consumer = toml.split("[[queues.consumers]]").find((part) => part.trimStart().startsWith('queue = "partners-portal-webhooks"')) ?? "";
    const maxRetries = Number(/max_retries = (\d+)/.exec(consumer)?.[1]);
    expect(maxRetries).toBeGreaterThan(retrySchedule(defaults).length);
  });

  it("says on a disabled endpoint how long every delivery failed", () => {
    expect(disabledReason(defaults)).toBe("Disabled automatically: every delivery failed for 24 hours.");
    expect(disabledReason({ retryWindowSeconds: 3600 })).toBe("Disabled automatically: every delivery failed for 1 hour.");
    expect(disabledReason({ retryWindowSeconds: 90 })).toBe("Disabled automatically: every delivery failed for 90 seconds.");
  });

  it("takes test-sized settings from the environment and refuses nonsense", () => {
    expect(
      configOf({
        WEBHOOKS_RETRY_BASE_SECONDS: "1",
        WEBHOOKS_RETRY_MAX_SECONDS: "2",
        WEBHOOKS_RETRY_WINDOW_SECONDS: "8",
        WEBHOOKS_TIMEOUT_SECONDS: "2",
      }).webhooks,
    ).toEqual({ environment: "development", retryBaseSeconds: 1, retryMaxSeconds: 2, retryWindowSeconds: 8, timeoutMs: 2000 });
    expect(() => configOf({ WEBHOOKS_RETRY_BASE_SECONDS: "10", WEBHOOKS_RETRY_MAX_SECONDS: "5" }).webhooks).toThrow(ConfigError);
    expect(() => configOf({ WEBHOOKS_RETRY_BASE_SECONDS: "soon" }).webhooks).toThrow(ConfigError);
    expect(() => configOf({ WEBHOOKS_TIMEOUT_SECONDS: "0" }).webhooks).toThrow(ConfigError);
  });
});
