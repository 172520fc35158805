// A new kind of request is one spec and one entry: this one (a throwaway order of tea for the office, in a table of its
// own) is written here and decided through the decision core (functions/decisions/decide.ts) against real D1 in
// workerd: approved with its after-commit step, rejected with a reason, the maker refused, a decision another checker
// beat refused as decided meanwhile, and several at once through the core's bulk step.
import { beforeAll, describe, expect, it } from "vitest";
import { auditStatement, listAudit } from "#server/audit/audit.db";
import { CHANGE_MESSAGES, type BusinessDecisionKind, type BusinessRun } from "#server/decisions/business-run";
import { decide, decideEach } from "#server/decisions/decide";
import { can } from "#server/permissions";
import { clearBatchGuardsStatement, guardStatement } from "#server/plumbing/batch-guards.db";
import { ForbiddenError, NotFoundError, RuleError } from "#server/tenancy/tenant";
import { usePortal } from "../support/use-portal";
import { AMA_ACCRA, AMA_KUMASI, ESI_KUMASI, KOFI_KUMASI, META, YAW_ACCRA } from "../support/tenants";

const portal = usePortal();

interface TeaOrder {
  id: string;
  status: string;
  makerId: string;
  cups: number;
}

/** What the kind's after-commit step saw: one line per approval that committed. */
const served: string[] = [];

// The spec file of the new kind: everything the core does not hold.
const TEA_ORDER: BusinessDecisionKind<TeaOrder> = {
  kind: "tea_order",
  messages: CHANGE_MESSAGES,
  pending: "pending",
  subjectIdOf: (request) => request.id,
  deciderOf: ({ tenant }) => ({ userId: tenant.userId, mayDecide: can(tenant.role, "decide:approval") }),
  async load({ tenant }, id) {
    const row = await tenant.db
      .prepare("SELECT id, status, maker_id, cups FROM tea_orders WHERE id = ? AND business_id = ?")
      .bind(id, tenant.businessId)
      .first<{ id: string; status: string; maker_id: string; cups: number }>();
    return row && { id: row.id, status: row.status, makerId: row.maker_id, cups: row.cups };
  },
  stateOf: (order) => ({ status: order.status, makerId: order.makerId }),
  async commit({ tenant, meta }, order, decided) {
    const { db } = tenant;
    await db.batch([
      guardStatement(db, "SELECT status = 'pending' FROM tea_orders WHERE id = ? AND business_id = ?", "decided meanwhile", order.id, tenant.businessId),
      db
        .prepare("UPDATE tea_orders SET status = ?, checker_id = ?, reason = ? WHERE id = ? AND business_id = ? AND status = 'pending'")
        .bind(decided.status, decided.by, decided.reason, order.id, tenant.businessId),
      auditStatement(
        tenant,
        meta,
        { action: `tea_order.${decided.status}`, entity: "tea_order", entityId: order.id, after: { status: decided.status } },
        decided.at,
      ),
      clearBatchGuardsStatement(db),
    ]);
    return true;
  },
  async afterCommit(_run, order, decided) {
    if (decided.status === "approved") served.push(`${order.id}: ${order.cups} cups`);
  },
};

/** The one entry of the kind in its family's list (the queue's is functions/decisions/business.ts). */
const KINDS = { tea_order: TEA_ORDER };

let serial = 0;
async function ask(maker = ESI_KUMASI, cups = 3): Promise<string> {
  serial += 1;
  const id = `tea_${serial}`;
  await maker.db
    .prepare("INSERT INTO tea_orders (id, business_id, status, maker_id, cups) VALUES (?, ?, 'pending', ?, ?)")
    .bind(id, maker.businessId, maker.userId, cups)
    .run();
  return id;
}

const by = (tenant: typeof KOFI_KUMASI): BusinessRun => ({ tenant, meta: META });

beforeAll(async () => {
  portal();
  // Each business's shard gets the kind's table (Accra's may be another database than Kumasi's).
  for (const tenant of [KOFI_KUMASI, AMA_ACCRA]) {
    await tenant.db
      .prepare(
        `CREATE TABLE IF NOT EXISTS tea_orders (id TEXT PRIMARY KEY, business_id TEXT NOT NULL, status TEXT NOT NULL, maker_id TEXT NOT NULL,
         cups INTEGER NOT NULL, checker_id TEXT, reason TEXT)`,
      )
      .run();
  }
});

describe("a throwaway kind decided through the core", () => {
  it("is approved by another checker: written, audited, and its after-commit step runs once", async () => {
    const id = await ask(ESI_KUMASI, 4);
    const approved = await decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "approve" });
    expect(approved).toMatchObject({ id, status: "approved" });
    expect(served).toEqual([`${id}: 4 cups`]);
    const audit = await listAudit(KOFI_KUMASI, { entity: "tea_order", entityId: id });
    expect(audit.rows.map((entry) => entry.action)).toEqual(["tea_order.approved"]);
    await expect(decide(KINDS.tea_order, by(AMA_KUMASI), id, { intent: "approve" })).rejects.toThrow("This request is already approved.");
  });

  it("is rejected with the reason trimmed, and the core's reason rule says what a blank one lacks", async () => {
    const id = await ask();
    await expect(decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "reject", reason: "   " })).rejects.toThrow("Give a reason for rejecting the request.");
    const rejected = await decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "reject", reason: "  Ɛfua brought tea already 🍵 " });
    expect(rejected.status).toBe("rejected");
    const reason = await KOFI_KUMASI.db.prepare("SELECT reason FROM tea_orders WHERE id = ?").bind(id).first<string>("reason");
    expect(reason).toBe("Ɛfua brought tea already 🍵");
    expect(served.some((line) => line.startsWith(`${id}:`))).toBe(false);
  });

  it("refuses the maker, a role that may not decide, and another business's checker (as not found), writing nothing", async () => {
    const id = await ask(KOFI_KUMASI);
    await expect(decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "approve" })).rejects.toThrow("You cannot decide your own request.");
    await expect(decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "reject", reason: "mine" })).rejects.toThrow("You cannot decide your own request.");
    await expect(decide(KINDS.tea_order, by(ESI_KUMASI), id, { intent: "approve" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(decide(KINDS.tea_order, by(YAW_ACCRA), id, { intent: "approve" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(decide(KINDS.tea_order, by(AMA_ACCRA), id, { intent: "approve" })).rejects.toBeInstanceOf(NotFoundError);
    const status = await KOFI_KUMASI.db.prepare("SELECT status FROM tea_orders WHERE id = ?").bind(id).first<string>("status");
    expect(status).toBe("pending");
  });

  it("two checkers at once: one decision is written, the other is told it was decided meanwhile", async () => {
    const id = await ask(ESI_KUMASI, 2);
    const outcomes = await Promise.allSettled([
      decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "approve" }),
      decide(KINDS.tea_order, by(AMA_KUMASI), id, { intent: "reject", reason: "Too many cups" }),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(RuleError);
    const status = await KOFI_KUMASI.db.prepare("SELECT status FROM tea_orders WHERE id = ?").bind(id).first<string>("status");
    expect(lost[0]!.reason.message).toBe(`This request is already ${status}.`);
    const audit = await listAudit(KOFI_KUMASI, { entity: "tea_order", entityId: id });
    expect(audit.rows).toHaveLength(1);
  });

  it("decides several at once: each on its own, the refused one named with its reason", async () => {
    const mine = await ask(KOFI_KUMASI);
    const theirs = [await ask(), await ask()];
    const outcome = await decideEach(
      [theirs[0]!, mine, theirs[1]!],
      async (id) => void (await decide(KINDS.tea_order, by(KOFI_KUMASI), id, { intent: "approve" })),
      async (id, error) => ({ id, subject: "Tea", message: error instanceof Error ? error.message : String(error) }),
    );
    expect(outcome).toEqual({ decided: 2, refused: [{ id: mine, subject: "Tea", message: "You cannot decide your own request." }] });
  });
});
