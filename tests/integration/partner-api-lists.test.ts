// Decision 044: the Partner API's lists with cursors (functions/partner-api/lists.ts), against the built Worker in
// workerd with real D1. Paging through every page gives each row of the business once, in the list's order; filters
// narrow as they say; nothing of another business appears through any key; a platform key needs the list's scope; a
// query the list does not take is a 400 naming each parameter; every answer carries the rate-limit fields.
import { beforeAll, describe, expect, it } from "vitest";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { ACCRA, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { answerOf, api, makeKey, makePlatformKeyFor } from "../support/partner-api";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ vars: { API_RATE_LIMIT_PER_MINUTE: "100000" } });

let kumasiKey: string;
let accraKey: string;
/** The platform key with every scope, with payments only, with disputes only. */
let platform: { all: string; payments: string; disputes: string };

interface Page {
  data: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Weird names a list and a cursor must carry as they are: Akan, Ga and Ewe letters, emoji, Arabic script. */
const NAMES = ["Ɔdɔ Ɛnyo Ŋkatie 🍲", "ɔdɔ ɛnyo ŋkatie 🍲", "Maame Ɛsi's Chop Bar 🎉", "مطعم أكرا", "Ŋutɔ Fashion 👗", "Ɔkwan Pa"];

async function db(): Promise<D1Database> {
  return portal().db();
}

async function idsOf(sql: string, ...binds: unknown[]): Promise<string[]> {
  const { results } = await (
    await db()
  )
    .prepare(sql)
    .bind(...binds)
    .all<{ id: string | number }>();
  return results.map((row) => String(row.id));
}

/** A path with its query, each parameter once. */
const withQuery = (path: string, query: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams(Object.entries(query).flatMap(([k, value]) => (value === undefined ? [] : [[k, String(value)]])));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

/** Every page of a list, asserting the page shape and that only the last page says it is the last. */
async function everyPage(key: string, path: string, query: Record<string, string | number | undefined> = {}, headers: Record<string, string> = {}) {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const response = await api(portal(), key, withQuery(path, { ...query, cursor }), undefined, headers);
    expect(response.status, `${path} ${await response.clone().text()}`).toBe(200);
    const page = await response.json<Page>();
    expect(Object.keys(page).sort()).toEqual(["data", "has_more", "next_cursor"]);
    pages += 1;
    rows.push(...page.data);
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      break;
    }
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.data.length).toBe(Number(query.limit ?? 25));
    cursor = page.next_cursor!;
    if (pages > 500) throw new Error("too many pages");
  }
  return { rows, pages };
}

const ids = (rows: Record<string, unknown>[], field = "id") => rows.map((row) => String(row[field]));
const unique = (values: string[]) => expect(new Set(values).size).toBe(values.length);

/** Newest first by (time, id): each row's key is below the one before it. */
function expectNewestFirst(
  rows: Record<string, unknown>[],
  time: (row: Record<string, unknown>) => string | number,
  id = (row: Record<string, unknown>) => String(row.id),
) {
  for (let i = 1; i < rows.length; i += 1) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const earlier = time(b) < time(a) || (time(b) === time(a) && id(b) < id(a));
    expect(earlier, `${JSON.stringify(b)} after ${JSON.stringify(a)}`).toBe(true);
  }
}

beforeAll(async () => {
  kumasiKey = await makeKey(portal(), KUMASI);
  accraKey = await makeKey(portal(), ACCRA);
  platform = {
    all: (await makePlatformKeyFor(portal())).secret,
    payments: (await makePlatformKeyFor(portal(), ["payments"])).secret,
    disputes: (await makePlatformKeyFor(portal(), ["disputes"])).secret,
  };
  const database = await db();
  // Merchants and points of sale with the names above, several made in the same millisecond, so pages of one or two
  // rows break among equal times and the id decides.
  const at = "2026-11-20T09:00:00.000Z";
  for (const [i, name] of NAMES.entries()) {
    const id = `mer_lists_${i}`;
    await database
      .prepare(
        `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'Food', 'Kumasi', 'Ashanti', 'Adum', ?, '233244000000', 'owner@example.com', ?, ?)`,
      )
      .bind(id, KUMASI, `LST-${i}`, name, name, `C00000000${i + 10}`, name, i < 4 ? at : `2026-11-2${i}T09:00:00.000Z`, at)
      .run();
    await database
      .prepare(
        `INSERT INTO points_of_sale (id, business_id, merchant_id, name, town, region, address, contact_phone, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'Kumasi', 'Ashanti', 'Adum', '233244000000', ?, ?)`,
      )
      .bind(`pos_lists_${i}`, KUMASI, i < 3 ? "mer_lists_0" : id, name, at, at)
      .run();
  }
  // Disputes (opened through the API, as the switch does) and refunds (asked for and approved in the portal) on
  // successful payments of each business.
  const successful = async (business: string, n: number) => {
    const { results } = await database
      .prepare("SELECT id, reference, amount FROM transactions WHERE business_id = ? AND status = 'successful' ORDER BY created_at DESC LIMIT ?")
      .bind(business, n)
      .all<{ id: number; reference: string; amount: number }>();
    return results;
  };
  const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  for (const [business, key, n] of [
    [KUMASI, kumasiKey, 7],
    [ACCRA, accraKey, 2],
  ] as const) {
    for (const payment of await successful(business, n)) {
      const dispute = { payment_reference: payment.reference, reason_code: "13.1", amount: 100, currency: "GHS", evidence_due_by: due };
      expect((await api(portal(), key, "/api/v1/disputes", dispute)).status).toBe(201);
    }
  }
  // Payments the disputes above did not touch; the first gets two refunds.
  const [first, ...rest] = (await successful(KUMASI, 12)).slice(7);
  for (const [i, payment] of [first!, first!, ...rest].entries()) {
    const refund = await requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount: 50, reason: "Goods returned", idempotencyKey: `lists-${i}` });
    if (i % 2 === 0) await approveMoneyRequest(KOFI_KUMASI, META, "refund", refund.id);
  }
});

describe("paging through every page", () => {
  // Each list, the business's rows as the database holds them, and the order's key.
  const LISTS = [
    {
      path: "/api/v1/payments",
      field: "reference",
      rows: () => idsOf("SELECT reference AS id FROM transactions WHERE business_id = ?", KUMASI),
      time: (row: Record<string, unknown>) => String(row.occurred_at),
    },
    {
      path: "/api/v1/merchants",
      field: "id",
      rows: () => idsOf("SELECT id FROM merchants WHERE business_id = ?", KUMASI),
      time: (row: Record<string, unknown>) => String(row.created_at),
    },
    {
      path: "/api/v1/points-of-sale",
      field: "id",
      rows: () => idsOf("SELECT id FROM points_of_sale WHERE business_id = ?", KUMASI),
      time: (row: Record<string, unknown>) => String(row.created_at),
    },
    {
      path: "/api/v1/disputes",
      field: "id",
      rows: () => idsOf("SELECT id FROM disputes WHERE business_id = ?", KUMASI),
      time: (row: Record<string, unknown>) => String(row.opened_at),
    },
    {
      path: "/api/v1/settlements",
      field: "id",
      rows: () => idsOf("SELECT id FROM settlements WHERE business_id = ?", KUMASI),
      time: (row: Record<string, unknown>) => String(row.created_at),
    },
    {
      path: "/api/v1/refunds",
      field: "id",
      rows: () => idsOf("SELECT id FROM refunds WHERE business_id = ?", KUMASI),
      time: (row: Record<string, unknown>) => String(row.requested_at),
    },
  ];

  it.each(LISTS)("$path: each of the business's rows once, newest first, has_more false on the last page", async ({ path, field, rows, time }) => {
    const expected = await rows();
    expect(expected.length).toBeGreaterThan(3);
    for (const limit of [100, 3]) {
      const { rows: listed, pages } = await everyPage(kumasiKey, path, { limit });
      unique(ids(listed, field));
      expect(ids(listed, field).sort()).toEqual([...expected].sort());
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
      // Payments' ties are broken by a row id the view does not show; the others' by their id.
      if (field === "id") expectNewestFirst(listed, time);
      else for (let i = 1; i < listed.length; i += 1) expect(time(listed[i]!) <= time(listed[i - 1]!)).toBe(true);
    }
  });

  it("/api/v1/terminals: each terminal once, by serial", async () => {
    const expected = await idsOf("SELECT serial AS id FROM terminals WHERE business_id = ?", KUMASI);
    const { rows } = await everyPage(kumasiKey, "/api/v1/terminals", { limit: 2 });
    expect(ids(rows, "serial")).toEqual([...expected].sort());
  });

  it("the default page is 25 and 100 is the most; a page of one works", async () => {
    const page = await (await api(portal(), kumasiKey, "/api/v1/payments")).json<Page>();
    expect(page.data).toHaveLength(25);
    expect(page.has_more).toBe(true);
    expect((await (await api(portal(), kumasiKey, "/api/v1/payments?limit=100")).json<Page>()).data).toHaveLength(100);
    expect((await (await api(portal(), kumasiKey, "/api/v1/merchants?limit=1")).json<Page>()).data).toHaveLength(1);
  });

  it("names in Ɔ, Ɛ, Ŋ, Arabic script and emoji come through lists and across cursors as they were written", async () => {
    const merchants = (await everyPage(kumasiKey, "/api/v1/merchants", { limit: 1 })).rows;
    expect(merchants.filter((m) => String(m.id).startsWith("mer_lists_")).map((m) => m.name)).toEqual(
      NAMES.map((name, i) => ({ name, i, at: i < 4 ? "2026-11-20" : `2026-11-2${i}` }))
        .sort((a, b) => (a.at === b.at ? b.i - a.i : a.at < b.at ? 1 : -1))
        .map(({ name }) => name),
    );
    const pointsOfSale = (await everyPage(kumasiKey, "/api/v1/points-of-sale", { limit: 2, merchant: "mer_lists_0" })).rows;
    expect(pointsOfSale.map((p) => p.name)).toEqual(NAMES.slice(0, 3).reverse());
    expect(pointsOfSale.every((p) => p.merchant === "mer_lists_0")).toBe(true);
  });
});

describe("the items", () => {
  it("a payment is listed as GET /api/v1/payments/{reference} answers it, its settlement and refunds included", async () => {
    const [refunded] = await idsOf(
      "SELECT t.reference AS id FROM refunds r JOIN transactions t ON t.id = r.transaction_id WHERE r.business_id = ? GROUP BY t.reference HAVING count(*) = 2",
      KUMASI,
    );
    const [settled] = await idsOf(
      "SELECT t.reference AS id FROM settlement_items i JOIN transactions t ON t.id = i.transaction_id WHERE t.business_id = ? LIMIT 1",
      KUMASI,
    );
    const { rows } = await everyPage(kumasiKey, "/api/v1/payments", { limit: 100 });
    for (const reference of [refunded!, settled!, String(rows[0]!.reference)]) {
      const one = await (await api(portal(), kumasiKey, `/api/v1/payments/${reference}`)).json();
      expect(rows.find((row) => row.reference === reference)).toEqual(one);
    }
    expect(rows.find((row) => row.reference === refunded)!.refunds).toHaveLength(2);
    expect(rows.find((row) => row.reference === settled)!.settlement).toMatchObject({ reference: expect.any(String) });
  });

  it("a settlement has its reference, amounts in pesewas, status, paid_at, attempts and rail fields", async () => {
    const page = await (await api(portal(), kumasiKey, "/api/v1/settlements?limit=1")).json<Page>();
    expect(Object.keys(page.data[0]!).sort()).toEqual(
      [
        "attempts",
        "created_at",
        "currency",
        "fees",
        "gross",
        "id",
        "merchant",
        "net",
        "paid_at",
        "period_end",
        "period_start",
        "rail",
        "rail_reference",
        "rail_status",
        "reference",
        "settlement_account",
        "status",
        "transfer",
      ].sort(),
    );
    const s = page.data[0]!;
    expect(s.net).toBe((s.gross as number) - (s.fees as number));
    // The daily run's settlement pays out no transfer (a transfer's payout names its trf_...).
    expect(s.transfer).toBeNull();
  });

  it("a refund is a payment's refund with the payment's reference", async () => {
    const { rows } = await everyPage(kumasiKey, "/api/v1/refunds", { limit: 100 });
    const item = rows[0]!;
    const payment = await (await api(portal(), kumasiKey, `/api/v1/payments/${String(item.payment_reference)}`)).json<{ refunds: unknown[] }>();
    const { payment_reference: _reference, ...refund } = item;
    expect(payment.refunds).toContainEqual(refund);
  });

  it("GET /api/v1/disputes/{id} answers the dispute as the list shows it, with its evidence; another business's id is 404 dispute_not_found", async () => {
    const [listed] = (await (await api(portal(), kumasiKey, "/api/v1/disputes?limit=1")).json<Page>()).data;
    const response = await api(portal(), kumasiKey, `/api/v1/disputes/${String(listed!.id)}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ...listed, evidence: expect.any(Array) });
    const [accras] = await idsOf("SELECT id FROM disputes WHERE business_id = ?", ACCRA);
    for (const id of [accras!, "dsp_00000000000000000000000000000000", "not-a-dispute"]) {
      expect(await answerOf(await api(portal(), kumasiKey, `/api/v1/disputes/${id}`))).toEqual({
        status: 404,
        body: { code: "dispute_not_found", message: "No dispute with that id." },
      });
    }
    expect((await api(portal(), accraKey, `/api/v1/disputes/${accras!}`)).status).toBe(200);
  });
});

describe("filters", () => {
  it("payments: by creation range, status, merchant and channel, alone and together", async () => {
    const database = await db();
    const { results } = await database
      .prepare(
        "SELECT merchant_id AS merchant, MAX(created_at) AS newest, MIN(created_at) AS oldest FROM transactions WHERE business_id = ? GROUP BY merchant_id LIMIT 1",
      )
      .bind(KUMASI)
      .all<{ merchant: string; newest: number; oldest: number }>();
    const { merchant, newest, oldest } = results[0]!;
    const from = Math.floor((newest + oldest) / 2);
    const cases: [Record<string, string>, string, unknown[]][] = [
      [{ status: "failed" }, "status = ?", ["failed"]],
      [{ channel: "card" }, "channel = ?", ["card"]],
      [{ merchant }, "merchant_id = ?", [merchant]],
      [{ created_from: new Date(from).toISOString() }, "created_at >= ?", [from]],
      [{ created_to: new Date(from).toISOString() }, "created_at < ?", [from]],
      [
        { merchant, status: "successful", channel: "mobile_money", created_from: new Date(oldest).toISOString(), created_to: new Date(newest).toISOString() },
        "merchant_id = ? AND status = ? AND channel = ? AND created_at >= ? AND created_at < ?",
        [merchant, "successful", "mobile_money", oldest, newest],
      ],
    ];
    for (const [query, where, binds] of cases) {
      const expected = await idsOf(`SELECT reference AS id FROM transactions WHERE business_id = ? AND ${where}`, KUMASI, ...binds);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      const { rows } = await everyPage(kumasiKey, "/api/v1/payments", { ...query, limit: 100 });
      expect(ids(rows, "reference").sort(), JSON.stringify(query)).toEqual(expected.sort());
    }
    // A time with its zone names the same instant.
    const zoned = new Date(from + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+01:00");
    const utc = await everyPage(kumasiKey, "/api/v1/payments", { created_from: new Date(from).toISOString().replace(/\.\d{3}Z$/, "Z"), limit: 100 });
    const plusOne = await everyPage(kumasiKey, "/api/v1/payments", { created_from: zoned, limit: 100 });
    expect(ids(plusOne.rows, "reference")).toEqual(ids(utc.rows, "reference"));
  });

  it("another business's merchant or payment reference filters to nothing, exactly as an unknown one", async () => {
    const [accraMerchant] = await idsOf("SELECT id FROM merchants WHERE business_id = ? LIMIT 1", ACCRA);
    const [accraPayment] = await idsOf(
      "SELECT t.reference AS id FROM disputes d JOIN transactions t ON t.id = d.transaction_id WHERE d.business_id = ? LIMIT 1",
      ACCRA,
    );
    const empty = { data: [], has_more: false, next_cursor: null };
    for (const path of [
      `/api/v1/payments?merchant=${accraMerchant!}`,
      "/api/v1/payments?merchant=mer_nobody",
      `/api/v1/points-of-sale?merchant=${accraMerchant!}`,
      `/api/v1/terminals?merchant=${accraMerchant!}`,
      `/api/v1/disputes?payment_reference=${accraPayment!}`,
      `/api/v1/refunds?payment_reference=${accraPayment!}`,
      "/api/v1/disputes?payment_reference=NO-SUCH-REF",
    ]) {
      const response = await api(portal(), kumasiKey, path);
      expect(response.status, path).toBe(200);
      expect(await response.json(), path).toEqual(empty);
    }
  });

  it("points of sale, terminals, disputes, settlements and refunds by each of their filters", async () => {
    const [merchant] = await idsOf("SELECT merchant_id AS id FROM terminals WHERE business_id = ? AND merchant_id IS NOT NULL LIMIT 1", KUMASI);
    const [pointOfSale] = await idsOf("SELECT point_of_sale_id AS id FROM terminals WHERE business_id = ? AND point_of_sale_id IS NOT NULL LIMIT 1", KUMASI);
    const [disputed] = await idsOf(
      "SELECT t.reference AS id FROM disputes d JOIN transactions t ON t.id = d.transaction_id WHERE d.business_id = ? LIMIT 1",
      KUMASI,
    );
    const [refunded] = await idsOf(
      "SELECT t.reference AS id FROM refunds r JOIN transactions t ON t.id = r.transaction_id WHERE r.business_id = ? GROUP BY t.reference HAVING count(*) = 2",
      KUMASI,
    );
    const [settlementTime] = await idsOf("SELECT created_at AS id FROM settlements WHERE business_id = ? ORDER BY created_at DESC LIMIT 1", KUMASI);
    const cases: [string, Record<string, string>, string, string, unknown[]][] = [
      ["/api/v1/points-of-sale", { merchant: merchant! }, "id", "SELECT id FROM points_of_sale WHERE business_id = ? AND merchant_id = ?", [merchant]],
      ["/api/v1/terminals", { merchant: merchant! }, "serial", "SELECT serial AS id FROM terminals WHERE business_id = ? AND merchant_id = ?", [merchant]],
      [
        "/api/v1/terminals",
        { point_of_sale: pointOfSale! },
        "serial",
        "SELECT serial AS id FROM terminals WHERE business_id = ? AND point_of_sale_id = ?",
        [pointOfSale],
      ],
      ["/api/v1/terminals", { status: "in_stock" }, "serial", "SELECT serial AS id FROM terminals WHERE business_id = ? AND status = ?", ["in_stock"]],
      ["/api/v1/disputes", { status: "open" }, "id", "SELECT id FROM disputes WHERE business_id = ? AND status = ?", ["open"]],
      [
        "/api/v1/disputes",
        { payment_reference: disputed! },
        "id",
        "SELECT d.id FROM disputes d JOIN transactions t ON t.id = d.transaction_id WHERE d.business_id = ? AND t.reference = ?",
        [disputed],
      ],
      ["/api/v1/settlements", { status: "paid" }, "id", "SELECT id FROM settlements WHERE business_id = ? AND status = ?", ["paid"]],
      ["/api/v1/settlements", { created_to: settlementTime! }, "id", "SELECT id FROM settlements WHERE business_id = ? AND created_at < ?", [settlementTime]],
      [
        "/api/v1/settlements",
        { created_from: settlementTime! },
        "id",
        "SELECT id FROM settlements WHERE business_id = ? AND created_at >= ?",
        [settlementTime],
      ],
      ["/api/v1/refunds", { status: "pending_approval" }, "id", "SELECT id FROM refunds WHERE business_id = ? AND status = ?", ["pending_approval"]],
      [
        "/api/v1/refunds",
        { payment_reference: refunded! },
        "id",
        "SELECT r.id FROM refunds r JOIN transactions t ON t.id = r.transaction_id WHERE r.business_id = ? AND t.reference = ?",
        [refunded],
      ],
    ];
    for (const [path, query, field, sql, binds] of cases) {
      const expected = await idsOf(sql, KUMASI, ...binds);
      expect(expected.length, `${path} ${JSON.stringify(query)}`).toBeGreaterThan(0);
      const { rows } = await everyPage(kumasiKey, path, { ...query, limit: 2 });
      expect(ids(rows, field).sort(), `${path} ${JSON.stringify(query)}`).toEqual(expected.sort());
    }
  });
});

describe("tenancy and keys", () => {
  it("another business's rows never appear: each business's key, and the platform key naming each, see their own", async () => {
    for (const path of [
      "/api/v1/payments",
      "/api/v1/merchants",
      "/api/v1/points-of-sale",
      "/api/v1/terminals",
      "/api/v1/disputes",
      "/api/v1/settlements",
      "/api/v1/refunds",
    ]) {
      const field = path === "/api/v1/payments" ? "reference" : path === "/api/v1/terminals" ? "serial" : "id";
      const kumasi = ids((await everyPage(kumasiKey, path, { limit: 100 })).rows, field);
      const accra = ids((await everyPage(accraKey, path, { limit: 100 })).rows, field);
      expect(
        kumasi.filter((id) => accra.includes(id)),
        path,
      ).toEqual([]);
      const viaPlatform = ids((await everyPage(platform.all, path, { limit: 100 }, { "PP-Business": ACCRA })).rows, field);
      expect(viaPlatform, path).toEqual(accra);
    }
  });

  it("a cursor of one business used by another reads that other business's rows only", async () => {
    const page = await (await api(portal(), kumasiKey, "/api/v1/disputes?limit=1")).json<Page>();
    const accra = await (await api(portal(), accraKey, `/api/v1/disputes?cursor=${page.next_cursor!}`)).json<Page>();
    const accraIds = await idsOf("SELECT id FROM disputes WHERE business_id = ?", ACCRA);
    for (const row of accra.data) expect(accraIds).toContain(row.id);
  });

  it("a platform key needs payments for payments, merchants, points of sale, terminals, settlements and refunds, and disputes for disputes", async () => {
    const [dispute] = await idsOf("SELECT id FROM disputes WHERE business_id = ? LIMIT 1", KUMASI);
    const byScope = {
      payments: ["/api/v1/payments", "/api/v1/merchants", "/api/v1/points-of-sale", "/api/v1/terminals", "/api/v1/settlements", "/api/v1/refunds"],
      disputes: ["/api/v1/disputes", `/api/v1/disputes/${dispute!}`],
    };
    for (const [scope, paths] of Object.entries(byScope)) {
      const other = scope === "payments" ? "disputes" : "payments";
      for (const path of paths) {
        expect((await api(portal(), platform[scope as "payments"], path, undefined, { "PP-Business": KUMASI })).status, path).toBe(200);
        expect(await answerOf(await api(portal(), platform[other as "payments"], path, undefined, { "PP-Business": KUMASI })), path).toEqual({
          status: 403,
          body: { code: "out_of_scope", message: `This key's scopes do not include ${scope}.` },
        });
      }
    }
    expect((await api(portal(), platform.all, "/api/v1/payments")).status).toBe(400);
  });
});

describe("a query the list does not take", () => {
  it("400 validation_failed naming each parameter as query.<name>, every problem at once", async () => {
    const cases: [string, { path: string; message: string }[]][] = [
      ["/api/v1/payments?limit=0", [{ path: "query.limit", message: "must be a whole number from 1 to 100" }]],
      ["/api/v1/payments?limit=101", [{ path: "query.limit", message: "must be a whole number from 1 to 100" }]],
      ["/api/v1/merchants?limit=ten", [{ path: "query.limit", message: "must be a whole number from 1 to 100" }]],
      ["/api/v1/payments?status=pending", [{ path: "query.status", message: "must be successful, failed or reversed" }]],
      ["/api/v1/payments?channel=cash", [{ path: "query.channel", message: "must be card or mobile_money" }]],
      ["/api/v1/payments?created_from=2026-11-23", [{ path: "query.created_from", message: expect.stringContaining("RFC 3339") }]],
      ["/api/v1/payments?created_to=2026-09-31T10:00:00Z", [{ path: "query.created_to", message: expect.stringContaining("September") }]],
      [
        "/api/v1/settlements?created_from=2026-11-23T10:00:00Z&created_to=2026-11-23T09:00:00Z",
        [{ path: "query.created_to", message: "must be later than created_from" }],
      ],
      ["/api/v1/payments?cursor=not-a-cursor", [{ path: "query.cursor", message: "is not a cursor this list gave" }]],
      ["/api/v1/payments?cursor=abc%20def", [{ path: "query.cursor", message: "is not a cursor this list gave" }]],
      ["/api/v1/terminals?status=lost", [{ path: "query.status", message: "must be in_stock, assigned, active, blocked, faulty or retired" }]],
      ["/api/v1/refunds?status=done", [{ path: "query.status", message: "must be pending_approval, rejected, sending, succeeded or failed" }]],
      ["/api/v1/disputes?payment_reference=%20x", [{ path: "query.payment_reference", message: expect.stringContaining("1 to 64") }]],
      ["/api/v1/merchants?status=active", [{ path: "query.status", message: "is not a documented parameter" }]],
      ["/api/v1/disputes/dsp_00000000000000000000000000000000?limit=1", [{ path: "query.limit", message: "is not a documented parameter" }]],
      ["/api/v1/payments?limit=5&limit=6", [{ path: "query.limit", message: "must be given once" }]],
      [
        "/api/v1/payments?limit=0&status=x&colour=red",
        [
          { path: "query.status", message: "must be successful, failed or reversed" },
          { path: "query.limit", message: "must be a whole number from 1 to 100" },
          { path: "query.colour", message: "is not a documented parameter" },
        ],
      ],
      ["/api/v1/rejections?limit=0", [{ path: "query.limit", message: "must be a whole number from 1 to 100" }]],
    ];
    for (const [path, errors] of cases) {
      const answer = await answerOf(await api(portal(), kumasiKey, path));
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({ code: "validation_failed" });
      expect((answer.body as { errors: unknown[] }).errors, path).toEqual(expect.arrayContaining(errors));
      expect((answer.body as { errors: unknown[] }).errors, path).toHaveLength(errors.length);
    }
  });

  it("a cursor of another list, or one changed by hand, is refused", async () => {
    const disputes = await (await api(portal(), kumasiKey, "/api/v1/disputes?limit=1")).json<Page>();
    const refunds = await (await api(portal(), kumasiKey, "/api/v1/refunds?limit=1")).json<Page>();
    const payments = await (await api(portal(), kumasiKey, "/api/v1/payments?limit=1")).json<Page>();
    const forged = Buffer.from(JSON.stringify(["payments", "1", 2])).toString("base64url");
    for (const [path, cursor] of [
      ["/api/v1/payments", disputes.next_cursor!],
      ["/api/v1/disputes", refunds.next_cursor!],
      ["/api/v1/settlements", refunds.next_cursor!],
      ["/api/v1/terminals", payments.next_cursor!],
      ["/api/v1/payments", forged],
      ["/api/v1/payments", payments.next_cursor!.slice(0, -2)],
    ] as const) {
      const answer = await answerOf(await api(portal(), kumasiKey, `${path}?cursor=${cursor}`));
      expect(answer, `${path} ${cursor}`).toEqual({
        status: 400,
        body: {
          code: "validation_failed",
          message: "The request has 1 problem.",
          errors: [{ path: "query.cursor", message: "is not a cursor this list gave" }],
        },
      });
    }
  });
});

describe("rate limits", () => {
  it("every list answer, and every refusal after the key is known, carries the RateLimit fields", async () => {
    for (const path of [
      "/api/v1/payments",
      "/api/v1/merchants",
      "/api/v1/points-of-sale",
      "/api/v1/terminals",
      "/api/v1/disputes",
      "/api/v1/settlements",
      "/api/v1/refunds",
      "/api/v1/payments?limit=0",
      "/api/v1/disputes/dsp_00000000000000000000000000000000",
    ]) {
      const response = await api(portal(), kumasiKey, path);
      expect(response.headers.get("RateLimit-Policy"), path).toBe('"per-key";q=100000;w=60');
      expect(response.headers.get("RateLimit"), path).toMatch(/^"per-key";r=\d+;t=\d+$/);
    }
  });

  it("POST and GET share /api/v1/payments and /api/v1/disputes; another method is 405 naming both", async () => {
    const response = await portal().fetch("/api/v1/payments", { method: "DELETE", headers: { Authorization: `Bearer ${kumasiKey}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST, GET");
  });
});
