// Transfers (the fifth approval kind) against real D1 in workerd: nothing moves
// until another person approves; then the ledger moves by exactly the amount,
// once, never past the available balance, and always sums to zero.
import { describe, expect, it } from "vitest";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { ForbiddenError, RuleError } from "#server/tenancy/tenant";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { approveMoneyRequest, rejectMoneyRequest } from "#server/approvals/money-requests.db";
import { ABENA_KUMASI, ACCRA, AMA_KUMASI, KOFI_KUMASI, KUMASI, META, tenantOf } from "../support/tenants";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
let key = 0;
const nextKey = () => `test-key-${(key += 1)}`;

async function merchants(): Promise<[string, string]> {
  const db = await portal().db();
  const rows = (await db.prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY name").bind(KUMASI).all<{ id: string }>())
    .results;
  // The richest account first.
  const withBalance = await Promise.all(rows.map(async (r) => ({ id: r.id, available: (await getMerchantBalances(ABENA_KUMASI, r.id)).available })));
  withBalance.sort((a, b) => b.available - a.available);
  return [withBalance[0]!.id, withBalance[1]!.id];
}

async function ledgerTotal(): Promise<number> {
  return (await (await portal().db()).prepare("SELECT coalesce(SUM(amount), 0) AS s FROM ledger_entries").first<number>("s")) ?? 0;
}

async function rows(sql: string, ...binds: unknown[]): Promise<number> {
  return (
    (await (
      await portal().db()
    )
      .prepare(sql)
      .bind(...binds)
      .first<number>("n")) ?? 0
  );
}

describe("asking for a transfer", () => {
  it("changes nothing in the ledger, and shows in the approvals queue as a transfer", async () => {
    const [from, to] = await merchants();
    const before = await getMerchantBalances(ABENA_KUMASI, from);
    const { id } = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "merchant", id: to },
      amount: 1_000,
      idempotencyKey: nextKey(),
    });
    expect(await getMerchantBalances(ABENA_KUMASI, from)).toEqual(before);
    expect(await rows("SELECT COUNT(*) AS n FROM approval_requests WHERE kind = 'transfer' AND target_id = ? AND status = 'pending'", id)).toBe(1);
  });

  it("a double submit (the same idempotency key, even at once) is one request", async () => {
    const [from, to] = await merchants();
    const idempotencyKey = nextKey();
    const input = { fromMerchantId: from, to: { kind: "merchant" as const, id: to }, amount: 777, idempotencyKey };
    const [a, b] = await Promise.all([requestTransfer(ABENA_KUMASI, META, input), requestTransfer(ABENA_KUMASI, META, input)]);
    const c = await requestTransfer(ABENA_KUMASI, META, input);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect(await rows("SELECT COUNT(*) AS n FROM transfers WHERE idempotency_key = ?", idempotencyKey)).toBe(1);
    expect(await rows("SELECT COUNT(*) AS n FROM approval_requests WHERE kind = 'transfer' AND target_id = ?", a.id)).toBe(1);
  });

  it("above the available balance is refused with the balance named", async () => {
    const [from, to] = await merchants();
    const { available } = await getMerchantBalances(ABENA_KUMASI, from);
    await expect(
      requestTransfer(ABENA_KUMASI, META, { fromMerchantId: from, to: { kind: "merchant", id: to }, amount: available + 1, idempotencyKey: nextKey() }),
    ).rejects.toThrow(/This amount exceeds the available balance of GHS [\d,]+\.\d{2}\./);
  });

  it("refuses a Viewer-like role, zero, another business's merchant and a settlement account of another merchant", async () => {
    const db = await portal().db();
    const [from, to] = await merchants();
    const esiIsOperations = tenantOf(KUMASI, "usr_esi_owusu", "Operations");
    await expect(
      requestTransfer(esiIsOperations, META, { fromMerchantId: from, to: { kind: "merchant", id: to }, amount: 1, idempotencyKey: nextKey() }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      requestTransfer(ABENA_KUMASI, META, { fromMerchantId: from, to: { kind: "merchant", id: to }, amount: 0, idempotencyKey: nextKey() }),
    ).rejects.toBeInstanceOf(RuleError);
    const foreign = await db.prepare("SELECT id FROM merchants WHERE business_id = ? LIMIT 1").bind(ACCRA).first<{ id: string }>();
    await expect(
      requestTransfer(ABENA_KUMASI, META, { fromMerchantId: foreign!.id, to: { kind: "merchant", id: to }, amount: 1, idempotencyKey: nextKey() }),
    ).rejects.toThrow(/active merchant account/);
    const othersAccount = await db
      .prepare("SELECT id FROM settlement_accounts WHERE business_id = ? AND merchant_id <> ? LIMIT 1")
      .bind(KUMASI, from)
      .first<{ id: string }>();
    await expect(
      requestTransfer(ABENA_KUMASI, META, {
        fromMerchantId: from,
        to: { kind: "settlement_account", id: othersAccount!.id },
        amount: 1,
        idempotencyKey: nextKey(),
      }),
    ).rejects.toThrow(/this merchant's active settlement accounts/);
  });
});

describe("deciding a transfer", () => {
  it("approval moves exactly the amount between the two accounts, once, and the ledger still sums to zero", async () => {
    const [from, to] = await merchants();
    const fromBefore = await getMerchantBalances(ABENA_KUMASI, from);
    const toBefore = await getMerchantBalances(ABENA_KUMASI, to);
    const { id } = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "merchant", id: to },
      amount: 2_500,
      idempotencyKey: nextKey(),
    });
    // Two checkers at once: one wins.
    const outcomes = await Promise.allSettled([approveMoneyRequest(KOFI_KUMASI, META, "transfer", id), approveMoneyRequest(AMA_KUMASI, META, "transfer", id)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect((await getMerchantBalances(ABENA_KUMASI, from)).available).toBe(fromBefore.available - 2_500);
    expect((await getMerchantBalances(ABENA_KUMASI, to)).available).toBe(toBefore.available + 2_500);
    expect(await rows("SELECT COUNT(*) AS n FROM ledger_entries WHERE transfer_id = ?", id)).toBe(2);
    expect(await ledgerTotal()).toBe(0);
    await expectAccountSumsMatchEntries(portal().shards());
    expect(await rows("SELECT COUNT(*) AS n FROM approval_requests WHERE target_id = ? AND status = 'approved'", id)).toBe(1);
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "transfer", id)).rejects.toThrow("This transfer is already completed.");
  });

  it("to the merchant's own settlement account: available goes down, the payout is owed", async () => {
    const db = await portal().db();
    const [from] = await merchants();
    const account = await db
      .prepare("SELECT id FROM settlement_accounts WHERE business_id = ? AND merchant_id = ? AND status = 'active' LIMIT 1")
      .bind(KUMASI, from)
      .first<{ id: string }>();
    const before = await getMerchantBalances(ABENA_KUMASI, from);
    const { id } = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "settlement_account", id: account!.id },
      amount: 1_234,
      idempotencyKey: nextKey(),
    });
    await approveMoneyRequest(KOFI_KUMASI, META, "transfer", id);
    expect((await getMerchantBalances(ABENA_KUMASI, from)).available).toBe(before.available - 1_234);
    expect(await ledgerTotal()).toBe(0);
  });

  it("the maker cannot decide, nor can a role without decide:approval", async () => {
    const [from, to] = await merchants();
    const { id } = await requestTransfer(KOFI_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "merchant", id: to },
      amount: 10,
      idempotencyKey: nextKey(),
    });
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "transfer", id)).rejects.toThrow("You cannot decide your own request.");
    await expect(approveMoneyRequest(ABENA_KUMASI, META, "transfer", id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("the balance is checked again at approval: two requests that fit alone cannot both be approved", async () => {
    const [from, to] = await merchants();
    const { available } = await getMerchantBalances(ABENA_KUMASI, from);
    const share = Math.floor(available * 0.6);
    const first = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "merchant", id: to },
      amount: share,
      idempotencyKey: nextKey(),
    });
    const second = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "merchant", id: to },
      amount: share,
      idempotencyKey: nextKey(),
    });
    await approveMoneyRequest(KOFI_KUMASI, META, "transfer", first.id);
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "transfer", second.id)).rejects.toThrow(/exceeds the available balance/);
    expect(await rows("SELECT COUNT(*) AS n FROM ledger_entries WHERE transfer_id = ?", second.id)).toBe(0);
    expect(await rows("SELECT COUNT(*) AS n FROM transfers WHERE id = ? AND status = 'pending_approval'", second.id)).toBe(1);
    expect(await ledgerTotal()).toBe(0);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("rejection needs a reason, moves nothing, and is final", async () => {
    const [from, to] = await merchants();
    const { id } = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from,
      to: { kind: "merchant", id: to },
      amount: 50,
      idempotencyKey: nextKey(),
    });
    await expect(rejectMoneyRequest(KOFI_KUMASI, META, "transfer", id, " ")).rejects.toThrow("Say why the transfer is rejected.");
    await rejectMoneyRequest(KOFI_KUMASI, META, "transfer", id, "Not agreed with the merchant");
    expect(await rows("SELECT COUNT(*) AS n FROM ledger_entries WHERE transfer_id = ?", id)).toBe(0);
    expect(
      await rows("SELECT COUNT(*) AS n FROM approval_requests WHERE target_id = ? AND status = 'rejected' AND reason = 'Not agreed with the merchant'", id),
    ).toBe(1);
    await expect(approveMoneyRequest(AMA_KUMASI, META, "transfer", id)).rejects.toThrow("This transfer is already rejected.");
    expect(await rows("SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'transfer' AND entity_id = ?", id)).toBe(2);
  });
});
