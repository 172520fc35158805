// The platform's operations view (decision 039): /platform with each business's figures of the day read on its own
// database, a business's read-only summary, the jobs and their recorded runs, the queues' parked messages, the
// databases; and "run now", "move this business" and "replay" as platform requests a second administrator decides.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { planOf, recordingDb, type Recorded } from "../../scripts/bench/query-catalogue";
import { businessSummary, listFigures } from "#server/operators/figures.db";
import { textOf } from "../support/html";
import { sendChecked } from "../support/fresh-check";
import { ADJOA, EFUA, KWAME, makeStaff } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";
const PAGES = ["/platform", `/platform/businesses/${KUMASI}`, "/platform/jobs", "/platform/queues", "/platform/shards"];

beforeAll(async () => {
  for (const member of [EFUA, KWAME, ADJOA]) await makeStaff(portal().core(), member);
});

const get = async (path: string, email: string | null = EFUA.email) =>
  portal().fetch(path, { headers: email ? await signedInCookie(portal(), email, null) : {}, redirect: "manual" });

/** The text of one table cell of the row that links to the business. */
function cellOf(html: string, businessId: string, label: string): string {
  const row = html.split("<tr").find((part) => part.includes(`/platform/businesses/${businessId}"`));
  if (!row) throw new Error(`No row for ${businessId}`);
  const cell = new RegExp(`<td data-label="${label.replace(/[()]/g, "\\$&")}"[^>]*>([\\s\\S]*?)</td>`).exec(row);
  if (!cell) throw new Error(`No cell ${label} in the row of ${businessId}`);
  return textOf(cell[1]!).replace(/\s+/g, " ").trim();
}

const post = (path: string, form: Record<string, string>, cookie: { Cookie: string }) =>
  portal().fetch(path, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: new URLSearchParams(form).toString(),
  });

/** Asks as EFUA and approves as KWAME (under a fresh check); the decided request's outcome. */
async function askAndApprove(path: string, form: Record<string, string>): Promise<{ id: string; outcome: Record<string, unknown> | null; status: string }> {
  const asked = await post(path, form, await signedInCookie(portal(), EFUA.email, null));
  expect(asked.status, await asked.clone().text()).toBe(302);
  const id = /\/platform\/requests\/(preq_[\w-]+)/.exec(asked.headers.get("Location") ?? "")?.[1];
  expect(id).toBeTruthy();
  const checker = await signedInCookie(portal(), KWAME.email, null);
  const decided = await sendChecked(portal().core(), checker, () => post(`/platform/requests/${id}`, { intent: "approve" }, checker));
  expect(decided.status, await decided.clone().text()).toBeLessThan(400);
  const row = await portal()
    .core()
    .prepare("SELECT status, outcome_json FROM platform_requests WHERE id = ?")
    .bind(id)
    .first<{ status: string; outcome_json: string | null }>();
  return { id: id!, status: row!.status, outcome: row!.outcome_json ? (JSON.parse(row!.outcome_json) as Record<string, unknown>) : null };
}

describe("who reaches the operations screens", () => {
  it.each(PAGES)("%s sends the signed out to sign in", async (path) => {
    const answer = await get(path, null);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toMatch(/^\/login/);
  });

  it.each(PAGES)("%s answers a business's administrator 404", async (path) => {
    const answer = await portal().fetch(path, { headers: await signedInCookie(portal(), KOFI, KUMASI), redirect: "manual" });
    expect(answer.status).toBe(404);
  });

  it.each(PAGES)("%s opens for Platform Support", async (path) => {
    expect((await get(path, ADJOA.email)).status).toBe(200);
  });

  it("answers a business that does not exist 404", async () => {
    expect((await get("/platform/businesses/bus_nobody")).status).toBe(404);
    expect((await get("/platform/businesses/%F0%9F%8D%8D")).status).toBe(404);
  });
});

describe("/platform: each business's figures", () => {
  beforeAll(async () => {
    const db = portal().businessDb(KUMASI);
    const now = Date.now();
    const pos = await db
      .prepare("SELECT id, merchant_id FROM points_of_sale WHERE business_id = ? LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; merchant_id: string }>();
    const pay = (reference: string, status: string, amount: number) =>
      db
        .prepare(
          `INSERT INTO transactions (business_id, reference, merchant_id, point_of_sale_id, channel, network, amount, fee, status, customer_msisdn, created_at)
           VALUES (?, ?, ?, ?, 'mobile_money', 'MTN', ?, 0, ?, '233240000077', ?)`,
        )
        .bind(KUMASI, reference, pos!.merchant_id, pos!.id, amount, status, now - 1000);
    const park = (id: string, receivedAt: number) =>
      db
        .prepare(
          `INSERT INTO ingest_parked (business_id, id, message_id, source, body, refs, error, attempts, received_at, parked_at)
           VALUES (?, ?, ?, 'consumer', '{}', '[]', 'Test poison: no such merchant', 3, ?, ?)`,
        )
        .bind(KUMASI, id, `msg_${id}`, receivedAt, receivedAt + 1000);
    const delivery = (n: number, status: string, attempts: number) =>
      db
        .prepare(
          `INSERT INTO webhook_deliveries (id, business_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
           VALUES (?, ?, 'we_ops_test', ?, ?, ?, ?, ?, ?)`,
        )
        .bind(`whd_ops_${n}`, KUMASI, `evt_ops_${n}`, status, attempts, now, now - 60_000, now);
    await db.batch([
      pay("OPS-TODAY-1", "successful", 12_345),
      pay("OPS-TODAY-2", "successful", 55),
      pay("OPS-TODAY-3", "failed", 999),
      park("prk_000000000000000000000001", now - 3 * 3_600_000),
      park("prk_000000000000000000000002", now - 600_000),
      db
        .prepare(
          `INSERT INTO webhook_endpoints (id, business_id, url, event_types, secret, status, enabled_at, created_at, updated_at)
           VALUES ('we_ops_test', ?, 'https://example.com/hook', '["payment.succeeded"]', 'whsec_test', 'enabled', ?, ?, ?)`,
        )
        .bind(KUMASI, now, new Date(now).toISOString(), new Date(now).toISOString()),
      ...[1, 2, 3, 4, 5, 6].map((n) =>
        db
          .prepare("INSERT INTO webhook_events (id, business_id, type, payload, happened_at, created_at) VALUES (?, ?, 'payment.succeeded', '{}', ?, ?)")
          .bind(`evt_ops_${n}`, KUMASI, now - 60_000, now - 60_000),
      ),
      delivery(1, "delivered", 1),
      delivery(2, "delivered", 2),
      delivery(3, "failed", 8),
      delivery(4, "pending", 2),
      delivery(5, "pending", 0),
      // Another business's trading name in Ghana's own letters and an emoji: shown and found as typed.
    ]);
    await portal().core().prepare("UPDATE businesses SET trading_name = 'Ɔkyeame Ɛnterprise Ŋ 🍍' WHERE id = ?").bind(ACCRA).run();
  });

  it("shows the figures each business's database holds", async () => {
    const db = portal().businessDb(KUMASI);
    const now = Date.now();
    const midnight = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
    const today = await db
      .prepare("SELECT COUNT(*) AS n, coalesce(SUM(amount), 0) AS amount FROM transactions WHERE business_id = ? AND status = 'successful' AND created_at >= ?")
      .bind(KUMASI, midnight)
      .first<{ n: number; amount: number }>();
    const due = await db
      .prepare("SELECT COUNT(*) AS n FROM disputes WHERE business_id = ? AND status = 'open' AND evidence_due_at > ?")
      .bind(KUMASI, now)
      .first<{ n: number }>();
    expect(today!.n).toBeGreaterThanOrEqual(2);
    const html = await (await get("/platform")).text();
    const amount = (today!.amount / 100).toLocaleString("en-GB", { minimumFractionDigits: 2 });
    expect(cellOf(html, KUMASI, "Payments today")).toBe(`${today!.n.toLocaleString("en-GB")} GHS ${amount}`);
    expect(cellOf(html, KUMASI, "Parked")).toBe("2");
    // The oldest parked message reached the API three hours ago.
    expect(cellOf(html, KUMASI, "Ingest lag")).toBe("3 h");
    // Tried: 4 (the untried one is not counted); failing: the given-up one and the one retrying after a failed try.
    expect(cellOf(html, KUMASI, "Webhook failures")).toBe("50% 2 of 4");
    expect(cellOf(html, KUMASI, "Disputes due")).toBe(String(due!.n));
    expect(cellOf(html, ACCRA, "Parked")).toBe("0");
    expect(cellOf(html, ACCRA, "Ingest lag")).toBe("None waiting");
    expect(cellOf(html, ACCRA, "Business")).toContain("Ɔkyeame Ɛnterprise Ŋ 🍍");
  });

  it("searches by name in any letters and by id, and filters by database and status, in the URL", async () => {
    const found = await (await get(`/platform?q=${encodeURIComponent("ɔkyeame ɛnterprise")}`)).text();
    expect(found).toContain(`/platform/businesses/${ACCRA}"`);
    expect(found).not.toContain(`/platform/businesses/${KUMASI}"`);
    const byId = await (await get(`/platform?q=${KUMASI}`)).text();
    expect(byId).toContain(`/platform/businesses/${KUMASI}"`);
    expect(byId).not.toContain(`/platform/businesses/${ACCRA}"`);
    const shard = (await portal().core().prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(KUMASI).first<{ shard: string }>())!.shard;
    const onShard = await (await get(`/platform?shard=${shard}`)).text();
    expect(onShard).toContain(`/platform/businesses/${KUMASI}"`);
    expect(onShard).not.toContain(`/platform/businesses/${ACCRA}"`);
    expect(await (await get("/platform?status=closed")).text()).toContain("No business matches");
    // A value that is no status is dropped, not a failure.
    expect((await get("/platform?status=nonsense&shard=../../x")).status).toBe(200);
  });
});

describe("a business's summary", () => {
  it("counts and sums, and never shows a payer's number or card", async () => {
    const db = portal().businessDb(KUMASI);
    const answer = await get(`/platform/businesses/${KUMASI}`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const text = textOf(html).replace(/\s+/g, " ");
    const merchants = await db.prepare("SELECT COUNT(*) AS n FROM merchants WHERE business_id = ?").bind(KUMASI).first<{ n: number }>();
    expect(text).toContain(`Merchants ${merchants!.n}`);
    expect(text).toContain("Parked Partner API messages 2");
    expect(text).toContain("Webhook failures (24 h) 50% (2 of 4 deliveries)");
    const payers = await db
      .prepare("SELECT customer_msisdn AS msisdn, card_bin AS bin FROM transactions WHERE business_id = ? ORDER BY id DESC LIMIT 200")
      .bind(KUMASI)
      .all<{ msisdn: string | null; bin: string | null }>();
    expect(payers.results.some((p) => p.bin)).toBe(true);
    for (const payer of payers.results) {
      if (payer.msisdn) expect(html).not.toContain(payer.msisdn);
      if (payer.bin) expect(text).not.toContain(payer.bin);
    }
    expect(text).not.toMatch(/233\d{9}/);
  });
});

describe("reading a business's summary leaves a trace", () => {
  const viewsOf = async () =>
    (
      await portal()
        .core()
        .prepare(
          `SELECT a.actor_id AS actor, a.entity_id AS business, u.email, a.after_json AS after FROM audit_log a JOIN users u ON u.id = a.actor_id
           WHERE a.business_id IS NULL AND a.action = 'platform.business.viewed' AND a.entity = 'business' ORDER BY a.id`,
        )
        .all<{ actor: string; business: string; email: string; after: string }>()
    ).results;

  it("on the platform's chain, once per operator and business within a view, whatever the reloads and revalidations", async () => {
    const operators = [EFUA.email, ADJOA.email];
    const businesses = [KUMASI, ACCRA];
    const seen = new Set((await viewsOf()).map((v) => `${v.email} ${v.business}`));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ who: fc.constantFrom(...operators), business: fc.constantFrom(...businesses), revalidation: fc.boolean() }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (visits) => {
          for (const { who, business, revalidation } of visits) {
            // A document load, or the single-fetch data request a revalidation (after any form on the page) sends.
            const answer = await get(revalidation ? `/platform/businesses/${business}.data` : `/platform/businesses/${business}`, who);
            expect(answer.status).toBe(200);
            seen.add(`${who} ${business}`);
          }
          const views = await viewsOf();
          expect(views.map((v) => `${v.email} ${v.business}`).sort()).toEqual([...seen].sort());
          for (const view of views)
            expect(JSON.parse(view.after)).toMatchObject({ name: expect.any(String), database: expect.stringMatching(/^(DB|SHARD_[A-Z])$/) });
        },
      ),
      { numRuns: 8 },
    );
    // Not on the business's chain: the platform read it, the business did nothing.
    const place = await portal().core().prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(KUMASI).first<string>("shard");
    const onItsChain = await portal()
      .database(place!)
      .prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND action = 'platform.business.viewed'")
      .bind(KUMASI)
      .first<number>("n");
    expect(onItsChain).toBe(0);
  });

  it("writes nothing for a business's person, nor for a business that does not exist", async () => {
    const before = (await viewsOf()).length;
    expect((await get(`/platform/businesses/${KUMASI}`, KOFI)).status).toBe(404);
    expect((await get("/platform/businesses/bus_nobody")).status).toBe(404);
    expect((await viewsOf()).length).toBe(before);
  });
});

describe("jobs", () => {
  it("records every run of the cron, with its outcome and duration, and shows the last one", async () => {
    const core = portal().core();
    await core.prepare("DELETE FROM job_runs").run();
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    const runs = await core.prepare("SELECT job, trigger, outcome, duration_ms, finished_at FROM job_runs ORDER BY job").all<Record<string, unknown>>();
    expect(runs.results.map((r) => r.job)).toEqual(["audit-sealing", "clearing", "notifications", "rail-poll", "refunds", "transfer-payouts", "webhook-sweep"]);
    for (const run of runs.results) {
      expect(run).toMatchObject({ trigger: "schedule", outcome: "ok" });
      expect(run.duration_ms).toBeGreaterThanOrEqual(0);
      expect(run.finished_at).toBeTruthy();
    }
    const text = textOf(await (await get("/platform/jobs", ADJOA.email)).text()).replace(/\s+/g, " ");
    expect(text).toMatch(
      /Clearing Makes payments due for clearing available to their merchants\. Every 5 minutes; Daily at 06:00 \d\d\/\d\d\/\d{4}, \d+:\d\d [AP]M Succeeded/,
    );
    expect(text).toContain("Settlement and payouts");
    expect(text).toContain("Never run");
  });

  it("offers Run now to administrators only, and runs the job once another approves", async () => {
    expect(await (await get("/platform/jobs", ADJOA.email)).text()).not.toContain(">Run now<");
    expect(await (await get("/platform/jobs", EFUA.email)).text()).toContain(">Run now<");
    const refused = await post("/platform/jobs", { intent: "run", job: "clearing" }, await signedInCookie(portal(), ADJOA.email, null));
    expect(refused.status).toBe(403);

    const decided = await askAndApprove("/platform/jobs", { intent: "run", job: "audit-sealing" });
    expect(decided.status).toBe("approved");
    expect(decided.outcome).toMatchObject({ job: "audit-sealing", outcome: "ok" });
    const run = await portal()
      .core()
      .prepare("SELECT trigger, outcome FROM job_runs WHERE job = 'audit-sealing' AND request_id = ?")
      .bind(decided.id)
      .all<{ trigger: string; outcome: string }>();
    expect(run.results).toEqual([{ trigger: "platform", outcome: "ok" }]);
  });
});

describe("queues", () => {
  it("lists parked messages by business and error, and replays them once approved", async () => {
    const text = textOf(await (await get("/platform/queues", ADJOA.email)).text()).replace(/\s+/g, " ");
    expect(text).toContain("Test poison: no such merchant");
    expect(text).toMatch(/Consumer Test poison: no such merchant 2/);
    const decided = await askAndApprove("/platform/queues", { intent: "replay", queue: "payments" });
    expect(decided.outcome).toMatchObject({ queue: "payments", replayed: 2 });
    const left = await portal().businessDb(KUMASI).prepare("SELECT COUNT(*) AS n FROM ingest_parked WHERE business_id = ?").bind(KUMASI).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});

describe("shards", () => {
  it("shows each database's size and businesses, and moves a business once another administrator approves", async () => {
    const core = portal().core();
    const from = (await core.prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(ACCRA).first<{ shard: string }>())!.shard;
    const html = await (await get("/platform/shards", ADJOA.email)).text();
    const text = textOf(html).replace(/\s+/g, " ");
    expect(text).toMatch(new RegExp(`${from} Shard \\d+(\\.\\d)? (KB|MB) under 0\\.1% 1`));
    expect(text).toContain("No business is being moved.");

    const summary = await (await get(`/platform/businesses/${ACCRA}`, EFUA.email)).text();
    expect(summary).toContain("Ask to move");
    expect(await (await get(`/platform/businesses/${ACCRA}`, ADJOA.email)).text()).not.toContain("Ask to move");
    const to = from === "SHARD_A" ? "SHARD_B" : "SHARD_A";
    const decided = await askAndApprove("/platform/shards", { intent: "move", business: ACCRA, to });
    expect(decided.outcome).toMatchObject({ businessId: ACCRA, from, to, moved: true });
    expect((await core.prepare("SELECT shard, moving_to FROM business_shards WHERE business_id = ?").bind(ACCRA).first())!).toEqual({
      shard: to,
      moving_to: null,
    });
    await portal().refreshPlaces();
    const after = textOf(await (await get("/platform/shards")).text()).replace(/\s+/g, " ");
    expect(after).toMatch(/Recent moves .*Moved/);
    expect(after).toContain(`${ACCRA}: ${from} → ${to}`);
  });
});

describe("a job that fails", () => {
  // A broken setting the archive reads: the daily cron's other jobs run, the archive's run is recorded as failed.
  const broken = usePortal({ vars: { ARCHIVE_RETENTION_MONTHS: "1" } });

  it("is recorded with its outcome and error, and the line's next job still runs", async () => {
    expect(await broken().scheduled("0 6 * * *")).not.toBe("ok");
    const runs = await broken()
      .core()
      .prepare("SELECT job, outcome, detail FROM job_runs ORDER BY id")
      .all<{ job: string; outcome: string; detail: string | null }>();
    const byJob = new Map(runs.results.map((r) => [r.job, r]));
    expect(byJob.get("archive")).toMatchObject({ outcome: "failed", detail: expect.stringContaining("ARCHIVE_RETENTION_MONTHS") });
    expect(byJob.get("clearing")).toMatchObject({ outcome: "ok" });
    expect(byJob.get("drop-submissions")?.outcome).toBe("ok");
  });
});

describe("the figures' reads", () => {
  // Every figure of the list and of a summary reads by an index from the businesses' ids: no table is read whole,
  // whatever the number of businesses or payments (json_each, the bound list of ids, is the only SCAN).
  it("read no table whole, and bind a page's ids as one parameter", async () => {
    const db = portal().businessDb(KUMASI);
    const recorded: Recorded[] = [];
    const ids = [KUMASI, ...Array.from({ length: 149 }, (_, i) => `bus_other_${i}`)];
    await listFigures({ db: recordingDb(db, recorded), businessIds: ids }, Date.now());
    await businessSummary({ businessId: KUMASI, db: recordingDb(db, recorded) }, Date.now());
    expect(recorded.length).toBe(17);
    for (const statement of recorded) {
      expect(statement.binds.length, statement.sql).toBeLessThanOrEqual(4);
      const { plan } = await planOf(db, statement);
      const scans = plan.filter((line) => /^SCAN /.test(line) && !/^SCAN (json_each|j)\b/.test(line));
      expect(scans, `${statement.sql}\n  plan: ${plan.join(" / ")}`).toEqual([]);
    }
    const today = recorded.find((s) => s.sql.includes("FROM transactions") && s.sql.includes("GROUP BY business_id"))!;
    expect((await planOf(db, today)).plan.join(" / ")).toMatch(/transactions_by_status \(business_id=\? AND status=\? AND created_at>\?\)/);
  });
});
