// The cold archive (docs/archive.md) against real D1 and R2 in workerd: months older than the retention
// leave D1 for gzipped NDJSON objects, and balances, daily totals and reports stay exactly as they were; a restore
// puts a month back row for row; re-running the job, also after a stop halfway, archives nothing twice and loses
// nothing; the transactions screen finds an archived payment by reference and downloads an archived month as CSV;
// another business's archive is a 404.
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { monthOf, type Manifest } from "#server/archive/format";
import { runArchive, type ArchiveDeps } from "#server/archive/job";
import { restoreMonth } from "#server/archive/restore";
import { clearDuePayments } from "#server/ledger/clearing";
import { applyIngest } from "#server/payments/ingest.db";
import type { PaymentItem } from "#server/payments/ingest-plan";
import { listMerchantBalances } from "#server/ledger/ledger.db";
import { reportBy } from "#server/reports/reports.db";
import { textOf } from "../support/html";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, AMA_ACCRA, businessOf, KOFI_KUMASI, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const DAY = 86_400_000;
const NAME = "Ɔdɔ Ɛnyo Ŋkɔ 🍲 Chop Bar";
const now = Date.now();
const monthsBack = (n: number) => {
  const today = new Date(now);
  return monthOf(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - n, 1));
};
/** Archived: older than 13 months. */
const OLD = monthsBack(16);
const OLDER = monthsBack(17);
/** Kept: 12 months back is inside the retention. */
const KEPT = monthsBack(12);
const at = (month: string, day: number, hour = 10) => Date.parse(`${month}-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00Z`);

async function pointOfSale(db: D1Database, businessId: string) {
  return (await db
    .prepare(
      `SELECT p.id, p.merchant_id AS merchantId, a.id AS accountId FROM points_of_sale p
       JOIN settlement_accounts a ON a.merchant_id = p.merchant_id AND a.is_primary = 1
       WHERE p.business_id = ? AND p.status = 'active' ORDER BY p.id LIMIT 1`,
    )
    .bind(businessId)
    .first<{ id: string; merchantId: string; accountId: string }>())!;
}

function payment(
  pos: { id: string; merchantId: string },
  reference: string,
  occurredAt: number,
  card: boolean,
  status: "successful" | "failed" = "successful",
): PaymentItem {
  return {
    reference,
    merchantId: pos.merchantId,
    pointOfSaleId: pos.id,
    terminalId: null,
    channel: card ? "card" : "mobile_money",
    network: card ? "VISA" : "MTN",
    amount: 10_000 + reference.length * 137 + (occurredAt % 997),
    status,
    failureReason: status === "failed" ? "Declined by the issuer" : null,
    cardBin: card ? "492012" : null,
    cardLast4: card ? "4321" : null,
    msisdn: card ? null : "233240000002",
    occurredAt,
    fingerprint: `fp-${reference}`,
  };
}

/** Old payments written as the Partner API's consumer writes them (postings, rollups, merchant totals), cleared, one reversed, one settled. */
async function writeHistory(db: D1Database) {
  const kumasi = await pointOfSale(db, KUMASI);
  const accra = await pointOfSale(db, ACCRA);
  await db.prepare("UPDATE merchants SET name = ? WHERE business_id = ? AND id = ?").bind(NAME, KUMASI, kumasi.merchantId).run();
  const old = Array.from({ length: 12 }, (_, i) =>
    payment(kumasi, `AR${OLD.replace("-", "")}${String(i).padStart(4, "0")}`, at(OLD, 1 + i * 2, 8 + (i % 9)), i % 2 === 0, i === 5 ? "failed" : "successful"),
  );
  await applyIngest(businessOf(KUMASI), { payments: old, reversals: [], heartbeats: [] }, at(OLD, 28));
  await applyIngest(businessOf(KUMASI), { payments: [payment(kumasi, "AR00KEPT0001", at(KEPT, 3), true)], reversals: [], heartbeats: [] }, at(KEPT, 3));
  await applyIngest(
    businessOf(ACCRA),
    { payments: [payment(accra, "AR00ACCRA001", at(OLDER, 4), false), payment(accra, "AR00ACCRA002", at(OLD, 4), true)], reversals: [], heartbeats: [] },
    at(OLD, 5),
  );
  await clearDuePayments([businessOf(KUMASI), businessOf(ACCRA)], now);
  await applyIngest(
    businessOf(KUMASI),
    { payments: [], reversals: [{ reference: old[3]!.reference, reason: "Customer dispute", reversedAt: at(OLD, 27) }], heartbeats: [] },
    at(OLD, 27),
  );
  // One payment paid by a settlement (settlement_items references it).
  const settled = await db
    .prepare("SELECT id, amount, fee FROM transactions WHERE business_id = ? AND reference = ?")
    .bind(KUMASI, old[0]!.reference)
    .first<{ id: number; amount: number; fee: number }>();
  await db.batch([
    db
      .prepare(
        `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, created_at, paid_at)
         VALUES ('stl_archive_test', ?, ?, ?, ?, ?, ?, ?, ?, 'paid', 'STL-ARCHIVE-TEST', ?, ?)`,
      )
      .bind(
        KUMASI,
        kumasi.merchantId,
        kumasi.accountId,
        at(OLD, 2, 0),
        at(OLD, 3, 0),
        settled!.amount,
        settled!.fee,
        settled!.amount - settled!.fee,
        new Date(at(OLD, 3)).toISOString(),
        new Date(at(OLD, 3)).toISOString(),
      ),
    db.prepare("INSERT INTO settlement_items (settlement_id, transaction_id) VALUES ('stl_archive_test', ?)").bind(settled!.id),
  ]);
  return { kumasi, old };
}

/** Everything a balance, a daily total or a report is made of, and what the business's screens compute from them. */
async function figures(db: D1Database, merchantIds: string[]) {
  const rows = async (sql: string) => (await db.prepare(sql).bind(KUMASI, ACCRA).all()).results;
  const fromDay = `${OLDER}-01`;
  const toDay = new Date(now).toISOString().slice(0, 10);
  return {
    accounts: await rows("SELECT id, entry_sum FROM ledger_accounts WHERE business_id IN (?, ?) ORDER BY id"),
    rollups: await rows(
      "SELECT * FROM daily_rollups WHERE business_id IN (?, ?) ORDER BY business_id, day, merchant_id, point_of_sale_id, terminal_id, channel, network, status",
    ),
    totals: await rows("SELECT * FROM daily_merchant_totals WHERE business_id IN (?, ?) ORDER BY business_id, day, merchant_id, status"),
    balances: await listMerchantBalances(KOFI_KUMASI, merchantIds),
    byDay: await reportBy(KOFI_KUMASI, { dimension: "day", fromDay, toDay }),
    byMerchant: await reportBy(KOFI_KUMASI, { dimension: "merchant", fromDay, toDay }),
    byNetwork: await reportBy(AMA_ACCRA, { dimension: "network", fromDay, toDay }),
  };
}

/** A month's rows exactly as D1 holds them. */
async function monthRows(db: D1Database, businessId: string, month: string) {
  const from = at(month, 1, 0);
  const to = Date.parse(`${monthOf(from + 32 * DAY)}-01T00:00:00Z`);
  const ids = "SELECT id FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ?";
  const all = async (sql: string) => (await db.prepare(sql).bind(businessId, from, to).all()).results;
  return {
    payments: await all(`SELECT * FROM transactions WHERE id IN (${ids}) ORDER BY id`),
    entries: await all(`SELECT * FROM ledger_entries WHERE transaction_id IN (${ids}) ORDER BY id`),
    items: await all(`SELECT * FROM settlement_items WHERE transaction_id IN (${ids}) ORDER BY transaction_id`),
  };
}

const portal = usePortal();

async function deps(overrides: Partial<ArchiveDeps> = {}): Promise<ArchiveDeps> {
  return { businesses: [businessOf(KUMASI), businessOf(ACCRA)], bucket: await portal().archive(), now, retentionMonths: 13, ...overrides };
}

async function page(path: string, email?: string, business?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  return { response, body: await response.text() };
}

describe("the cold archive", () => {
  let history: Awaited<ReturnType<typeof writeHistory>>;
  let before: Awaited<ReturnType<typeof figures>>;
  let oldRows: Awaited<ReturnType<typeof monthRows>>;

  it("archives the months older than the retention to R2 and leaves balances, daily totals and reports as they were", async () => {
    const db = await portal().db();
    history = await writeHistory(db);
    oldRows = await monthRows(db, KUMASI, OLD);
    expect(oldRows.payments).toHaveLength(12);
    expect(oldRows.entries.length).toBeGreaterThan(20);
    expect(oldRows.items).toHaveLength(1);
    before = await figures(db, [history.kumasi.merchantId]);

    const result = await runArchive(await deps());
    expect(result.archived.sort()).toEqual([`${ACCRA}/${OLDER}`, `${ACCRA}/${OLD}`, `${KUMASI}/${OLD}`].sort());
    expect(result.payments).toBe(14);
    // The month left D1 (entries and settlement items with it); the month inside the retention did not.
    expect(await monthRows(db, KUMASI, OLD)).toEqual({ payments: [], entries: [], items: [] });
    expect((await monthRows(db, KUMASI, KEPT)).payments).toHaveLength(1);
    expect(await figures(db, [history.kumasi.merchantId])).toEqual(before);
    await expectAccountSumsMatchEntries(portal().shards());

    // The object is gzipped NDJSON of D1's own rows; the manifest's counts and sums are the month's.
    const bucket = await portal().archive();
    const object = await bucket.get(`${KUMASI}/${OLD}.ndjson.gz`);
    const lines = gunzipSync(new Uint8Array(await object!.arrayBuffer()))
      .toString("utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { t: { id: number }; e: unknown[]; s: string | null });
    expect(lines.map((l) => l.t)).toEqual(oldRows.payments);
    expect(lines.flatMap((l) => l.e)).toEqual(expect.arrayContaining(oldRows.entries));
    const manifest = await (await bucket.get(`${KUMASI}/${OLD}.manifest.json`))!.json<Manifest>();
    expect(manifest.figures.payments).toBe(12);
    expect(manifest.figures.entries).toBe(oldRows.entries.length);
    expect(manifest.figures.settlementItems).toBe(1);
    expect(manifest.figures.amountSum).toBe(oldRows.payments.reduce((sum, p) => sum + (p as { amount: number }).amount, 0));
  });

  it("running the job again archives nothing twice and loses nothing", async () => {
    const db = await portal().db();
    const bucket = await portal().archive();
    const sha = (await db.prepare("SELECT sha256 FROM archive_months WHERE business_id = ? AND month = ?").bind(KUMASI, OLD).first<string>("sha256"))!;
    const again = await runArchive(await deps());
    expect(again).toEqual({ archived: [], finished: [], payments: 0 });
    expect((await db.prepare("SELECT COUNT(*) AS n FROM archive_months WHERE business_id IN (?, ?)").bind(KUMASI, ACCRA).first<number>("n"))!).toBe(3);
    expect((await bucket.get(`${KUMASI}/${OLD}.ndjson.gz`))!.customMetadata!.sha256).toBe(sha);
    expect(await figures(db, [history.kumasi.merchantId])).toEqual(before);
  });

  it("finds an archived payment by its reference, for its own business only", async () => {
    const reference = history.old[4]!.reference;
    const { response, body } = await page(`/transactions?q=${reference}`);
    expect(response.status).toBe(200);
    const text = textOf(body);
    expect(text).toContain(`${reference} Archived with `);
    expect(text).toContain(NAME);
    expect(text).toContain("Archived months");
    // A period within an archived month says so: its payments are not in the list.
    const period = textOf((await page(`/transactions?range=custom&from=${OLD}-01&to=${OLD}-28`)).body);
    expect(period).toContain("is archived: its payments are not in this list or its totals.");
    expect(period).toContain("No payments in this period");
    expect(textOf((await page("/transactions")).body)).not.toContain("is archived:");
    // Accra's screen neither finds Kumasi's payment nor lists Kumasi's months.
    const accra = textOf((await page(`/transactions?q=${reference}`, "ama.mensah@example.com", ACCRA)).body);
    expect(accra).not.toContain(reference);
    expect(accra).toContain("Archived months");
    expect(accra).not.toContain(NAME);
  });

  it("downloads an archived month as the transactions CSV, names and all; another business's month is a 404", async () => {
    const { response, body } = await page(`/transactions/archive/${OLD}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    const today = (await page("/transactions/export")).body.replace(/^\uFEFF/, "").split("\r\n")[0];
    expect(lines[0]).toBe(today);
    expect(lines).toHaveLength(13);
    for (const p of history.old) expect(body).toContain(p.reference);
    expect(lines.filter((l) => l.includes(NAME))).toHaveLength(12);
    expect(body).toContain(",reversed,");
    // Kumasi never archived OLDER (only Accra did): as absent as a month nobody archived, or a made-up one.
    for (const path of [`/transactions/archive/${OLDER}`, "/transactions/archive/1999-01", "/transactions/archive/..%2F..%2Fbus_accra_mobile_pay%2F2024-01"]) {
      expect((await page(path)).response.status, path).toBe(404);
    }
    expect((await page(`/transactions/archive/${OLDER}`, "ama.mensah@example.com", ACCRA)).response.status).toBe(200);
  });

  it("a restore puts the month back exactly", async () => {
    const db = await portal().db();
    const bucket = await portal().archive();
    expect(await restoreMonth({ bucket }, businessOf(KUMASI), OLD)).toEqual({ payments: 12 });
    expect(await monthRows(db, KUMASI, OLD)).toEqual(oldRows);
    expect(await bucket.keys(`${KUMASI}/`)).toEqual([]);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM archive_references").first<number>("n")).toBe(2);
    expect(await figures(db, [history.kumasi.merchantId])).toEqual(before);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("a run stopped after writing the object, or halfway through the deletes, is finished by the next: nothing twice, nothing lost", async () => {
    const db = await portal().db();
    const bucket = await portal().archive();
    // Stopped after the object was written: the manifest's write fails (R2 out of reach), nothing is recorded or deleted.
    const failing = Object.assign(Object.create(bucket) as R2Bucket, {
      put: async (key: string, value: Uint8Array | string, options?: R2PutOptions) => {
        if (key.endsWith(".manifest.json")) throw new Error("R2 unreachable");
        return bucket.put(key, value, options);
      },
    });
    await expect(runArchive(await deps({ bucket: failing }))).rejects.toThrow("R2 unreachable");
    expect(await bucket.keys(`${KUMASI}/`)).toEqual([`${KUMASI}/${OLD}.ndjson.gz`]);
    expect(await monthRows(db, KUMASI, OLD)).toEqual(oldRows);
    expect((await page(`/transactions/archive/${OLD}`)).response.status).toBe(404);

    // Recorded, then stopped after one delete batch of 5: the month shows as archived, the rest of its rows wait.
    const cut = await runArchive(await deps({ deleteBatch: 5, maxDeleteBatches: 1 }));
    expect(cut.archived).toEqual([`${KUMASI}/${OLD}`]);
    expect(cut.finished).toEqual([]);
    expect((await monthRows(db, KUMASI, OLD)).payments).toHaveLength(7);
    // (Entries and archived sums overlap while a month is 'deleting': only the balances are checked here.)
    expect(await figures(db, [history.kumasi.merchantId])).toEqual(before);

    const resumed = await runArchive(await deps({ deleteBatch: 5 }));
    expect(resumed).toEqual({ archived: [], finished: [`${KUMASI}/${OLD}`], payments: 0 });
    expect(await monthRows(db, KUMASI, OLD)).toEqual({ payments: [], entries: [], items: [] });
    expect(await db.prepare("SELECT status, payments FROM archive_months WHERE business_id = ? AND month = ?").bind(KUMASI, OLD).first()).toEqual({
      status: "archived",
      payments: 12,
    });
    expect(await runArchive(await deps())).toEqual({ archived: [], finished: [], payments: 0 });
    await expectAccountSumsMatchEntries(portal().shards());
    expect(await figures(db, [history.kumasi.merchantId])).toEqual(before);
    // And the month comes back whole.
    await restoreMonth({ bucket }, businessOf(KUMASI), OLD);
    expect(await monthRows(db, KUMASI, OLD)).toEqual(oldRows);
  });
});

describe("the daily Cron Trigger", () => {
  const cronPortal = usePortal();

  it("runs the archive", async () => {
    const db = await cronPortal().db();
    await writeHistory(db);
    expect(await cronPortal().scheduled("0 6 * * *")).toBe("ok");
    const months = await db.prepare("SELECT business_id AS businessId, month, status FROM archive_months ORDER BY business_id, month").all();
    // Each business's months are on its own database (decision 021): in one order here.
    const sorted = (months.results as { businessId: string; month: string }[]).sort((a, b) =>
      `${a.businessId}${a.month}`.localeCompare(`${b.businessId}${b.month}`),
    );
    expect(sorted).toEqual([
      { businessId: ACCRA, month: OLDER, status: "archived" },
      { businessId: ACCRA, month: OLD, status: "archived" },
      { businessId: KUMASI, month: OLD, status: "archived" },
    ]);
    expect(await (await cronPortal().archive()).keys(`${KUMASI}/`)).toEqual([`${KUMASI}/${OLD}.manifest.json`, `${KUMASI}/${OLD}.ndjson.gz`]);
  });
});
