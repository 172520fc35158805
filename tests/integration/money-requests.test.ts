// The one decision engine of the money requests (functions/approvals/money-requests.db.ts), the same checks run against
// each kind: a kind whose spec skipped a guard, or whose batch left half a decision behind, fails here by name.
import { beforeAll, describe, expect, it } from "vitest";
import { approveMoneyRequest, readMoneyRequest, rejectMoneyRequest } from "#server/approvals/money-requests.db";
import type { MoneyRequestKind } from "#server/approvals/change-kinds";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { merchantTransferPosting } from "#server/ledger/ledger";
import { getMerchantBalances, postingStatements } from "#server/ledger/ledger.db";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { ForbiddenError, NotFoundError, RuleError, type Tenant } from "#server/tenancy/tenant";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import { recordingDb, type Recorded } from "../../scripts/bench/query-catalogue";
import { expectAccountSumsMatchEntries, topUp } from "../support/ledger";
import { ABENA_KUMASI, AMA_ACCRA, AMA_KUMASI, businessDatabase, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { expectEventsAsDocumented } from "../support/event-payloads";

const portal = usePortal();
let sequence = 0;
const nextKey = () => `money-request-test-${(sequence += 1)}`;
const usedPayments = new Set<number>();

/** An active merchant of the business other than `merchantId`. */
async function otherMerchant(merchantId: string): Promise<string> {
  const row = await KOFI_KUMASI.db
    .prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' AND id <> ? ORDER BY id LIMIT 1")
    .bind(KUMASI, merchantId)
    .first<{ id: string }>();
  return row!.id;
}

interface KindCase {
  kind: MoneyRequestKind;
  /** A new request of `amount` pesewas by `maker`, which the merchant's money allows; the row's id. */
  ask(maker: Tenant, amount: number): Promise<string>;
  /** The merchant whose available money the approval takes. */
  merchantOf(id: string): Promise<string>;
  /** Deciding a row of another business. */
  missing: { error: typeof RuleError | typeof NotFoundError; message?: string };
  approvedStatus: string;
  alreadyApproved: string;
  alreadyRejected: string;
  /** The webhook events the two decisions write (to a subscribed endpoint). */
  events: { approved: string[]; rejected: string[] };
}

const KINDS: KindCase[] = [
  {
    kind: "transfer",
    async ask(maker, amount) {
      const from = (await KOFI_KUMASI.db
        .prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY id LIMIT 1")
        .bind(KUMASI)
        .first<{ id: string }>())!.id;
      await topUp(KOFI_KUMASI, from, amount * 4);
      const to = await otherMerchant(from);
      return (await requestTransfer(maker, META, { fromMerchantId: from, to: { kind: "merchant", id: to }, amount, idempotencyKey: nextKey() })).id;
    },
    merchantOf: async (id) => (await readMoneyRequest(KOFI_KUMASI, "transfer", id))!.fromMerchantId,
    missing: { error: RuleError, message: "There is no such transfer." },
    approvedStatus: "completed",
    alreadyApproved: "This transfer is already completed.",
    alreadyRejected: "This transfer is already rejected.",
    events: { approved: ["transfer.approved"], rejected: ["transfer.rejected"] },
  },
  {
    kind: "refund",
    async ask(maker, amount) {
      const { results } = await KOFI_KUMASI.db
        .prepare("SELECT id, merchant_id AS merchantId FROM transactions WHERE business_id = ? AND status = 'successful' AND amount >= ? ORDER BY id LIMIT 400")
        .bind(KUMASI, amount)
        .all<{ id: number; merchantId: string }>();
      const payment = results.find((p) => !usedPayments.has(p.id))!;
      usedPayments.add(payment.id);
      await topUp(KOFI_KUMASI, payment.merchantId, amount * 4);
      return (await requestRefund(maker, META, { transactionId: payment.id, amount, reason: "Goods returned", idempotencyKey: nextKey() })).id;
    },
    merchantOf: async (id) => (await readMoneyRequest(KOFI_KUMASI, "refund", id))!.merchantId,
    missing: { error: NotFoundError },
    approvedStatus: "sending",
    alreadyApproved: "This refund is already approved.",
    alreadyRejected: "This refund is already rejected.",
    // A refund's events are of its sending (refund.succeeded, refund.failed), not of its decision.
    events: { approved: [], rejected: [] },
  },
];

/** What a decision leaves behind, read from the database. */
async function traces(kind: MoneyRequestKind, id: string) {
  const db = KOFI_KUMASI.db;
  const table = kind === "transfer" ? "transfers" : "refunds";
  const row = await db.prepare(`SELECT status, approved_by FROM ${table} WHERE business_id = ? AND id = ?`).bind(KUMASI, id).first<Record<string, string>>();
  const request = await db
    .prepare("SELECT status, checker_id, reason FROM approval_requests WHERE business_id = ? AND kind = ? AND target_id = ?")
    .bind(KUMASI, kind, id)
    .first<Record<string, string | null>>();
  const audit = await db
    .prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity = ? AND entity_id = ? ORDER BY id")
    .bind(KUMASI, kind, id)
    .all<{ action: string }>();
  const postings = await db.prepare("SELECT COUNT(*) AS n FROM ledger_postings WHERE posting_key = ?").bind(`pst_${id}`).first<number>("n");
  const events = await db
    .prepare("SELECT type FROM webhook_events WHERE business_id = ? AND id IN (?, ?) ORDER BY type")
    .bind(KUMASI, `evt_${id}_approved`, `evt_${id}_rejected`)
    .all<{ type: string }>();
  return { row, request, audit: audit.results.map((a) => a.action), postings, events: events.results.map((e) => e.type) };
}

beforeAll(async () => {
  // Only a business that subscribed gets webhook events written (functions/webhooks/outbox.db.ts).
  await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: "https://hooks.example.com/money", eventTypes: ["transfer.approved", "transfer.rejected", "refund.succeeded", "refund.failed"] },
    newWebhookSecret(),
    "development",
  );
});

describe.each(KINDS)("deciding a $kind request", (c) => {
  it("the maker cannot decide it, nor a role without decide:approval, nor another business; nothing is written", async () => {
    const own = await c.ask(KOFI_KUMASI, 120);
    const asked = await traces(c.kind, own);
    for (const decide of [() => approveMoneyRequest(KOFI_KUMASI, META, c.kind, own), () => rejectMoneyRequest(KOFI_KUMASI, META, c.kind, own, "Not mine")]) {
      await expect(decide()).rejects.toThrow("You cannot decide your own request.");
    }
    for (const decide of [() => approveMoneyRequest(ESI_KUMASI, META, c.kind, own), () => rejectMoneyRequest(ESI_KUMASI, META, c.kind, own, "Not mine")]) {
      await expect(decide()).rejects.toBeInstanceOf(ForbiddenError);
    }
    for (const decide of [() => approveMoneyRequest(AMA_ACCRA, META, c.kind, own), () => rejectMoneyRequest(AMA_ACCRA, META, c.kind, own, "Not ours")]) {
      const refused = decide();
      await expect(refused).rejects.toBeInstanceOf(c.missing.error);
      if (c.missing.message) await expect(refused).rejects.toThrow(c.missing.message);
    }
    expect(await traces(c.kind, own)).toEqual(asked);
    expect(asked.row!.status).toBe("pending_approval");
    expect(asked.request!.status).toBe("pending");
  });

  it("approving marks the row and its request, posts once, audits once, writes the kind's event, and is final", async () => {
    const id = await c.ask(ABENA_KUMASI, 150);
    const merchant = await c.merchantOf(id);
    const before = await getMerchantBalances(KOFI_KUMASI, merchant);
    const approved = await approveMoneyRequest(KOFI_KUMASI, META, c.kind, id);
    expect(approved.status).toBe(c.approvedStatus);
    expect((await getMerchantBalances(KOFI_KUMASI, merchant)).available).toBe(before.available - 150);
    expect(await traces(c.kind, id)).toEqual({
      row: { status: c.approvedStatus, approved_by: KOFI_KUMASI.userId },
      request: { status: "approved", checker_id: KOFI_KUMASI.userId, reason: null },
      audit: [`${c.kind}.request`, `${c.kind}.approve`],
      postings: 1,
      events: c.events.approved,
    });
    await expect(approveMoneyRequest(AMA_KUMASI, META, c.kind, id)).rejects.toThrow(c.alreadyApproved);
    await expect(rejectMoneyRequest(AMA_KUMASI, META, c.kind, id, "Too late")).rejects.toThrow(c.alreadyApproved);
    expect((await traces(c.kind, id)).audit).toEqual([`${c.kind}.request`, `${c.kind}.approve`]);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("rejecting needs a reason, keeps it, moves nothing, writes the kind's event, and is final", async () => {
    const id = await c.ask(ABENA_KUMASI, 130);
    const merchant = await c.merchantOf(id);
    const before = await getMerchantBalances(KOFI_KUMASI, merchant);
    for (const reason of ["", "  ", " a "]) {
      await expect(rejectMoneyRequest(KOFI_KUMASI, META, c.kind, id, reason)).rejects.toThrow(`Say why the ${c.kind} is rejected.`);
    }
    expect((await rejectMoneyRequest(KOFI_KUMASI, META, c.kind, id, "  Not agreed with the merchant ")).status).toBe("rejected");
    expect(await getMerchantBalances(KOFI_KUMASI, merchant)).toEqual(before);
    expect(await traces(c.kind, id)).toEqual({
      row: { status: "rejected", approved_by: KOFI_KUMASI.userId },
      request: { status: "rejected", checker_id: KOFI_KUMASI.userId, reason: "Not agreed with the merchant" },
      audit: [`${c.kind}.request`, `${c.kind}.reject`],
      postings: 0,
      events: c.events.rejected,
    });
    await expect(approveMoneyRequest(AMA_KUMASI, META, c.kind, id)).rejects.toThrow(c.alreadyRejected);
    await expect(rejectMoneyRequest(AMA_KUMASI, META, c.kind, id, "Again")).rejects.toThrow(c.alreadyRejected);
  });

  it("two checkers at once, one approving and one rejecting: exactly one decision lands, whole", async () => {
    const id = await c.ask(ABENA_KUMASI, 110);
    const outcomes = await Promise.allSettled([approveMoneyRequest(KOFI_KUMASI, META, c.kind, id), rejectMoneyRequest(AMA_KUMASI, META, c.kind, id, "Raced")]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(RuleError);
    expect([c.alreadyApproved, c.alreadyRejected]).toContain(refused.reason.message);
    const left = await traces(c.kind, id);
    const approved = outcomes[0].status === "fulfilled";
    expect(left.audit).toEqual([`${c.kind}.request`, approved ? `${c.kind}.approve` : `${c.kind}.reject`]);
    expect(left.postings).toBe(approved ? 1 : 0);
    expect(left.request!.status).toBe(approved ? "approved" : "rejected");
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("an approval the merchant's money no longer covers is refused by the balance and leaves nothing behind", async () => {
    const id = await c.ask(ABENA_KUMASI, 140);
    const merchant = await c.merchantOf(id);
    // Meanwhile the money moves elsewhere, leaving one pesewa less than the request.
    const { available } = await getMerchantBalances(KOFI_KUMASI, merchant);
    await KOFI_KUMASI.db.batch(
      postingStatements(KOFI_KUMASI, merchantTransferPosting(merchant, await otherMerchant(merchant), available - 139), {
        postingId: `test_drain_${id}`,
        memo: "Test drain",
        postedAt: Date.now(),
      }),
    );
    const asked = await traces(c.kind, id);
    await expect(approveMoneyRequest(KOFI_KUMASI, META, c.kind, id)).rejects.toThrow("This amount exceeds the available balance of GHS 1.39.");
    expect(await traces(c.kind, id)).toEqual(asked);
    expect(asked.row!.status).toBe("pending_approval");
    expect((await getMerchantBalances(KOFI_KUMASI, merchant)).available).toBe(139);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("every statement of asking and deciding binds the business", async () => {
    const log: Recorded[] = [];
    const recording = (tenant: Tenant): Tenant => ({ ...tenant, db: recordingDb(businessDatabase(tenant.businessId), log) });
    const approved = await c.ask(recording(ABENA_KUMASI), 100);
    await approveMoneyRequest(recording(KOFI_KUMASI), META, c.kind, approved);
    const rejected = await c.ask(recording(ABENA_KUMASI), 100);
    await rejectMoneyRequest(recording(KOFI_KUMASI), META, c.kind, rejected, "Not this one");
    // Statements that touch no table but the batch's scratch guards.
    const scratchOnly = (sql: string) =>
      [...sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi)].every((m) => m[1] === "batch_guards" || m[1] === "json_each");
    expect(log.filter((r) => r.sql.includes(`UPDATE ${c.kind}s`))).toHaveLength(2);
    expect(log.filter((r) => !scratchOnly(r.sql) && !r.binds.includes(KUMASI)).map((r) => r.sql)).toEqual([]);
  });
});

describe("the events it wrote", () => {
  it("each holds what the OpenAPI document says its type's data holds", async () => {
    const seen = await expectEventsAsDocumented(portal());
    expect([...seen].sort()).toEqual(expect.arrayContaining(["transfer.approved", "transfer.rejected"]));
  });
});
