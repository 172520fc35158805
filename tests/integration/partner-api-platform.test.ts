// The switch's credential (decision 039): a platform key acts for the business a request names in PP-Business, within its
// scopes, against the built Worker with the PAYMENTS queue consumed. Business keys keep working as they did, and
// nothing of one business is reachable from another through any key and header.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { revokePlatformKey, rollPlatformKey } from "#server/operators/platform-keys.db";
import { makePlatformKey, ROLL_GRACE_MS } from "#server/partner-api/keys";
import { MESSAGES } from "#server/partner-api/credential";
import { ACCRA, KUMASI, META } from "../support/tenants";
import { answerOf, api, eventually, makeKey, makePlatformKeyFor, momoPayment, partiesOf, paymentAppliedAfter, type Parties } from "../support/partner-api";
import { paymentsConsumers, type Portal } from "../support/portal";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "100000" } });
let platform: string;
let kumasiKey: string;
let accraKey: string;
let kumasi: Parties[];
let accra: Parties[];

beforeAll(async () => {
  platform = (await makePlatformKeyFor(portal())).secret;
  kumasiKey = await makeKey(portal(), KUMASI);
  accraKey = await makeKey(portal(), ACCRA);
  kumasi = await partiesOf(portal(), KUMASI);
  accra = await partiesOf(portal(), ACCRA);
});

const as = (business: string) => ({ "PP-Business": business });

async function held(businessId: string, reference: string): Promise<number> {
  const db = await portal().db();
  return (
    (await db.prepare("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference = ?").bind(businessId, reference).first<number>("n")) ?? 0
  );
}

/** Anywhere, in any business: a payment of one business must not land in another. */
async function heldAnywhere(reference: string): Promise<string[]> {
  const rows = await Promise.all(
    portal()
      .shards()
      .map((db) => db.prepare("SELECT business_id AS b FROM transactions WHERE reference = ?").bind(reference).all<{ b: string }>()),
  );
  return rows.flatMap((r) => r.results.map((row) => row.b));
}

async function setLifecycle(p: Portal, businessId: string, lifecycle: "active" | "suspended" | "closed"): Promise<void> {
  await p.core().prepare("UPDATE business_shards SET lifecycle = ? WHERE business_id = ?").bind(lifecycle, businessId).run();
}

/** Runs `test` with the business in that lifecycle, then puts it back: the file's other tests need it active. */
async function whileBusiness(businessId: string, lifecycle: "suspended" | "closed", test: () => Promise<void>): Promise<void> {
  await setLifecycle(portal(), businessId, lifecycle);
  try {
    await test();
  } finally {
    await setLifecycle(portal(), businessId, "active");
  }
}

const answer = answerOf;

describe("a platform key acts for the business it names", () => {
  it("a payment sent with PP-Business lands in that business, and is not reachable from another", async () => {
    const payment = momoPayment(kumasi[0]!);
    const response = await api(portal(), platform, "/api/v1/payments", payment, as(KUMASI));
    expect(await answer(response)).toEqual({ status: 202, body: { accepted: 1 } });
    const reference = payment.reference as string;
    await eventually(async () => (await held(KUMASI, reference)) === 1, 15_000, "the payment to be written");
    expect(await heldAnywhere(reference)).toEqual([KUMASI]);
    // The business's own key and the platform key for it read it; for the other business it is no payment.
    expect((await api(portal(), kumasiKey, `/api/v1/payments/${reference}`)).status).toBe(200);
    expect(await (await api(portal(), platform, `/api/v1/payments/${reference}`, undefined, as(KUMASI))).json()).toMatchObject({ reference });
    expect(await answer(await api(portal(), platform, `/api/v1/payments/${reference}`, undefined, as(ACCRA)))).toEqual({
      status: 404,
      body: { code: "payment_not_found", message: "No payment with that reference." },
    });
    expect((await api(portal(), accraKey, `/api/v1/payments/${reference}`)).status).toBe(404);
  });

  it("naming one business with another's merchant is answered as an unknown merchant, and nothing is queued", async () => {
    const payment = momoPayment(kumasi[0]!);
    const response = await api(portal(), platform, "/api/v1/payments", payment, as(ACCRA));
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("is no merchant of this business");
  });

  it("400 without PP-Business (or with an empty one), naming the header", async () => {
    for (const headers of [{}, as(""), as("   ")]) {
      expect(await answer(await api(portal(), platform, "/api/v1/payments", momoPayment(kumasi[0]!), headers))).toEqual({
        status: 400,
        body: { code: "business_required", message: MESSAGES.businessRequired },
      });
    }
    expect(MESSAGES.businessRequired).toMatch(/^PP-Business header is required with a platform key/);
  });

  it("404 for a business that does not exist, and the same for an id no business could have", async () => {
    const answers = await Promise.all(
      ["bus_nobody", "bus_kumasi_fresh_foods_x", "BUS_KUMASI_FRESH_FOODS", "bus kumasi", "x".repeat(101)].map(async (id) =>
        answer(await api(portal(), platform, "/api/v1/payments", momoPayment(kumasi[0]!), as(id))),
      ),
    );
    for (const one of answers) expect(one).toEqual({ status: 404, body: { code: "business_not_found", message: MESSAGES.noSuchBusiness } });
  });

  it("a key that is no key is the same 401 whatever its kind: unknown, revoked, or past its roll's grace", async () => {
    const revoked = await makePlatformKeyFor(portal());
    await revokePlatformKey(portal().core(), { userId: "usr_ama_mensah" }, META, revoked.id, Date.now());
    const expired = await makePlatformKeyFor(portal());
    const next = await makePlatformKey("Next", "development");
    // Rolled with a grace already over.
    await rollPlatformKey(portal().core(), { userId: "usr_ama_mensah" }, META, expired.id, next.row, -1000, Date.now());
    const unknown = `pp_platform_test_${"A".repeat(32)}`;
    const business = await answer(await api(portal(), `pp_test_${"A".repeat(32)}`, "/api/v1/payments", momoPayment(kumasi[0]!)));
    for (const key of [unknown, revoked.secret, expired.secret]) {
      const response = await api(portal(), key, "/api/v1/payments", momoPayment(kumasi[0]!), as(KUMASI));
      expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(await answer(response)).toEqual(business);
    }
    expect(business.status).toBe(401);
    // The successor works at once, with the rolled key's scopes.
    expect((await api(portal(), next.secret, "/api/v1/payments", momoPayment(kumasi[0]!), as(KUMASI))).status).toBe(202);
  });

  it("a rolled platform key works until its grace ends, beside its successor; last use is recorded", async () => {
    const old = await makePlatformKeyFor(portal());
    const next = await makePlatformKey("Next", "development");
    await rollPlatformKey(portal().core(), { userId: "usr_ama_mensah" }, META, old.id, next.row, ROLL_GRACE_MS, Date.now());
    expect((await api(portal(), old.secret, "/api/v1/payments/NOPE-1", undefined, as(KUMASI))).status).toBe(404);
    expect((await api(portal(), next.secret, "/api/v1/payments/NOPE-1", undefined, as(KUMASI))).status).toBe(404);
    await eventually(async () => {
      const row = await portal().core().prepare("SELECT last_used_at AS t FROM platform_keys WHERE id = ?").bind(old.id).first<{ t: number | null }>();
      return row?.t !== null && row?.t !== undefined;
    });
  });
});

describe("scopes", () => {
  it("403 names the scope the key lacks; what it holds works", async () => {
    const payments = (await makePlatformKeyFor(portal(), ["payments"])).secret;
    const reference = (await (
      await portal().db()
    )
      .prepare("SELECT reference FROM transactions WHERE business_id = ? LIMIT 1")
      .bind(KUMASI)
      .first<string>("reference"))!;
    expect((await api(portal(), payments, `/api/v1/payments/${reference}`, undefined, as(KUMASI))).status).toBe(200);
    expect((await api(portal(), payments, "/api/v1/rejections", undefined, as(KUMASI))).status).toBe(200);
    const refused = [
      [`/api/v1/payments/${reference}/reversal`, { reason: "Returned", reversed_at: new Date().toISOString() }, "reversals"],
      ["/api/v1/reversals/waiting", undefined, "reversals"],
      [
        `/api/v1/terminals/${kumasi[0]!.serial}/heartbeats`,
        { battery_percent: 50, signal_percent: 50, software_version: "1", sent_at: new Date().toISOString() },
        "heartbeats",
      ],
      ["/api/v1/disputes", { payment_reference: reference, reason_code: "13.1", amount: 1, currency: "GHS", evidence_due_by: "2099-01-01" }, "disputes"],
      ["/api/v1/disputes/dsp_0/close", { outcome: "won" }, "disputes"],
    ] as const;
    for (const [path, body, scope] of refused) {
      expect(await answer(await api(portal(), payments, path, body, as(KUMASI))), path).toEqual({
        status: 403,
        body: { code: "out_of_scope", message: `This key's scopes do not include ${scope}.` },
      });
    }
    const heartbeats = (await makePlatformKeyFor(portal(), ["heartbeats"])).secret;
    expect(await answer(await api(portal(), heartbeats, "/api/v1/payments", momoPayment(kumasi[0]!), as(KUMASI)))).toEqual({
      status: 403,
      body: { code: "out_of_scope", message: "This key's scopes do not include payments." },
    });
  });
});

describe("a business's own key", () => {
  it("keeps working without the header, and with its own business named", async () => {
    expect((await api(portal(), kumasiKey, "/api/v1/payments", momoPayment(kumasi[0]!))).status).toBe(202);
    expect((await api(portal(), kumasiKey, "/api/v1/payments", momoPayment(kumasi[0]!), as(KUMASI))).status).toBe(202);
    // An empty header is no header.
    expect((await api(portal(), kumasiKey, "/api/v1/payments", momoPayment(kumasi[0]!), as(""))).status).toBe(202);
  });

  it("naming another business, known or not, is refused with one answer, and nothing is queued", async () => {
    const payment = momoPayment(accra[0]!);
    const answers = await Promise.all(
      [ACCRA, "bus_nobody", KUMASI.toUpperCase()].map(async (id) => answer(await api(portal(), kumasiKey, "/api/v1/payments", payment, as(id)))),
    );
    for (const one of answers) expect(one).toEqual({ status: 403, body: { code: "not_your_business", message: MESSAGES.notYourBusiness } });
    // Nor may a business's key read the other's payments by naming it.
    const reference = (await (
      await portal().db()
    )
      .prepare("SELECT reference FROM transactions WHERE business_id = ? LIMIT 1")
      .bind(ACCRA)
      .first<string>("reference"))!;
    expect((await api(portal(), kumasiKey, `/api/v1/payments/${reference}`, undefined, as(ACCRA))).status).toBe(403);
    await paymentAppliedAfter(portal(), kumasiKey, KUMASI, kumasi[0]!);
    expect(await heldAnywhere(payment.reference as string)).toEqual([]);
  });
});

describe("a suspended or closed business", () => {
  it("suspended: its own keys get 403 business suspended; the platform key's payments are still applied", async () => {
    await whileBusiness(ACCRA, "suspended", async () => {
      expect(await answer(await api(portal(), accraKey, "/api/v1/payments", momoPayment(accra[0]!)))).toEqual({
        status: 403,
        body: { code: "business_suspended", message: MESSAGES.suspended },
      });
      expect(MESSAGES.suspended).toMatch(/business is suspended/);
      const payment = momoPayment(accra[0]!);
      expect((await api(portal(), platform, "/api/v1/payments", payment, as(ACCRA))).status).toBe(202);
      await eventually(async () => (await held(ACCRA, payment.reference as string)) === 1, 15_000, "the suspended business's payment to be written");
    });
    // Reactivated, its key works again.
    expect((await api(portal(), accraKey, "/api/v1/payments", momoPayment(accra[0]!))).status).toBe(202);
  });

  it("a business suspended on its own row (businesses.status) is refused the same 403", async () => {
    const db = portal().businessDb(ACCRA);
    await db.prepare("UPDATE businesses SET status = 'suspended' WHERE id = ?").bind(ACCRA).run();
    try {
      expect(await answer(await api(portal(), accraKey, "/api/v1/payments/NOPE-3"))).toEqual({
        status: 403,
        body: { code: "business_suspended", message: MESSAGES.suspended },
      });
    } finally {
      await db.prepare("UPDATE businesses SET status = 'active' WHERE id = ?").bind(ACCRA).run();
    }
  });

  it("closed: 403 business closed for its own keys and the platform key alike", async () => {
    await whileBusiness(ACCRA, "closed", async () => {
      for (const [key, headers] of [
        [accraKey, {}],
        [platform, as(ACCRA)],
      ] as const) {
        expect(await answer(await api(portal(), key, "/api/v1/payments", momoPayment(accra[0]!), headers))).toEqual({
          status: 403,
          body: { code: "business_closed", message: MESSAGES.closed },
        });
      }
      expect(MESSAGES.closed).toMatch(/business is closed/);
    });
  });
});

describe("idempotency", () => {
  it("one Idempotency-Key sent for two businesses with one platform key is two requests, each applied", async () => {
    const key = `idem-${Date.now()}`;
    const forKumasi = momoPayment(kumasi[0]!);
    const forAccra = momoPayment(accra[0]!);
    const first = await api(portal(), platform, "/api/v1/payments", forKumasi, { ...as(KUMASI), "Idempotency-Key": key });
    const second = await api(portal(), platform, "/api/v1/payments", forAccra, { ...as(ACCRA), "Idempotency-Key": key });
    for (const response of [first, second]) {
      expect(response.status).toBe(202);
      expect(response.headers.get("Idempotent-Replayed")).toBeNull();
    }
    await eventually(async () => (await held(KUMASI, forKumasi.reference as string)) === 1 && (await held(ACCRA, forAccra.reference as string)) === 1);
    // Still a replay within one business.
    const again = await api(portal(), platform, "/api/v1/payments", forKumasi, { ...as(KUMASI), "Idempotency-Key": key });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("the switch's keys and the business's own never replay or refuse each other's", async () => {
    const key = `shared-${Date.now()}`;
    const bySwitch = await api(portal(), platform, "/api/v1/payments", momoPayment(kumasi[0]!), { ...as(KUMASI), "Idempotency-Key": key });
    const byBusiness = await api(portal(), kumasiKey, "/api/v1/payments", momoPayment(kumasi[1]!), { "Idempotency-Key": key });
    expect([bySwitch.status, byBusiness.status]).toEqual([202, 202]);
    expect(byBusiness.headers.get("Idempotent-Replayed")).toBeNull();
  });
});

describe("no key and header reach a business other than the one named or owned (property)", () => {
  it("a payment of one business is read only by that business's key or the platform key naming it", async () => {
    const db = await portal().db();
    const refOf = async (business: string) =>
      (await db.prepare("SELECT reference FROM transactions WHERE business_id = ? ORDER BY reference LIMIT 1").bind(business).first<string>("reference"))!;
    const references = { [KUMASI]: await refOf(KUMASI), [ACCRA]: await refOf(ACCRA) };
    const keys = { kumasi: kumasiKey, accra: accraKey, platform };
    const owner = { kumasi: KUMASI, accra: ACCRA } as const;
    const header = fc.oneof(
      fc.constant(null),
      fc.constantFrom(KUMASI, ACCRA, "bus_nobody", ` ${KUMASI} `, KUMASI.toUpperCase(), `${ACCRA}\t`),
      fc.stringMatching(/^[!-~]{1,40}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<keyof typeof keys>("kumasi", "accra", "platform"),
        header,
        fc.constantFrom(KUMASI, ACCRA),
        async (who, named, holder) => {
          const response = await api(portal(), keys[who], `/api/v1/payments/${references[holder]}`, undefined, named === null ? {} : as(named));
          // The business the request acts for: a business key's own when the header is absent or names it; the named one for the platform key.
          const trimmed = named?.trim() || null;
          const actsFor = who === "platform" ? trimmed : trimmed === null || trimmed === owner[who] ? owner[who] : null;
          if (response.status === 200) {
            expect(actsFor).toBe(holder);
            expect(await response.json()).toMatchObject({ reference: references[holder] });
          } else {
            expect(actsFor === holder && (who === "platform" || actsFor === owner[who]), `${who} ${String(named)} ${holder}: ${response.status}`).toBe(false);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("the platform's audit", () => {
  it("making, rolling and revoking a platform key are on the platform's chain (business_id NULL), by the staff member, without the secret", async () => {
    const made = await makePlatformKeyFor(portal(), ["payments"], "usr_kofi_boateng");
    const next = await makePlatformKey("Next", "development");
    await rollPlatformKey(portal().core(), { userId: "usr_kofi_boateng" }, META, made.id, next.row, ROLL_GRACE_MS, Date.now());
    await revokePlatformKey(portal().core(), { userId: "usr_kofi_boateng" }, META, next.row.id, Date.now());
    const { results } = await portal()
      .core()
      .prepare(
        "SELECT business_id AS businessId, actor_id AS actorId, action, entity_id AS entityId, after_json AS after FROM audit_log WHERE entity = 'platform_key' AND entity_id IN (?, ?) ORDER BY id",
      )
      .bind(made.id, next.row.id)
      .all<{ businessId: string | null; actorId: string; action: string; entityId: string; after: string | null }>();
    expect(results.map((r) => [r.businessId, r.actorId, r.action, r.entityId])).toEqual([
      [null, "usr_kofi_boateng", "platform_key.create", made.id],
      [null, "usr_kofi_boateng", "platform_key.roll", made.id],
      [null, "usr_kofi_boateng", "platform_key.revoke", next.row.id],
    ]);
    expect(JSON.stringify(results)).not.toContain(made.secret.slice(21));
    expect(JSON.parse(results[1]!.after!)).toMatchObject({ rolledTo: next.row.id, scopes: ["payments"] });
  });
});

// Last: starting a second portal points the tenant helpers at it.
describe("rate limits", () => {
  const limited = usePortal({ vars: { API_RATE_LIMIT_PER_MINUTE: "2" } });

  it("are counted per platform key and business: one business's share spent leaves the other's whole", async () => {
    const key = (await makePlatformKeyFor(limited())).secret;
    const get = (business: string) => api(limited(), key, "/api/v1/payments/NOPE-9", undefined, as(business));
    expect([(await get(KUMASI)).status, (await get(KUMASI)).status]).toEqual([404, 404]);
    const over = await get(KUMASI);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await get(ACCRA)).status).toBe(404);
    // A business's own key has its own window too.
    const own = await makeKey(limited(), KUMASI);
    expect((await api(limited(), own, "/api/v1/payments/NOPE-9")).status).toBe(404);
  });
});
