// Disputes (docs/decisions/023-disputes.md) as staff read and answer them. The processor opens and closes them through
// the Partner API (processor-disputes.db.ts). Staff answer them on /disputes: a response, evidence files (bytes in R2,
// one row each here) and a submit, all before the evidence deadline; a submitted, closed or overdue dispute is
// read-only. Every statement binds business_id.
import { MAX_EVIDENCE_FILES, type DisputeStatus } from "./dispute-rules";
import { can } from "../permissions";
import { auditStatement, signInAuditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textStartsWith } from "../lists/search";
import { ForbiddenError, NotFoundError, RuleError, type BusinessDb, type Db, type RequestMeta, type Tenant } from "../tenancy/tenant";
import type { Channel } from "../ledger/pricing";

export { DISPUTE_STATUSES, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_FILES, MAX_RESPONSE_CHARS, isAnswerable, type DisputeStatus } from "./dispute-rules";
export interface Dispute {
  id: string;
  merchantId: string;
  merchantName: string;
  paymentReference: string;
  paymentAmount: number;
  paymentChannel: Channel;
  paymentNetwork: string;
  paymentCreatedAt: number;
  reasonCode: string;
  amount: number;
  evidenceDueAt: number;
  status: DisputeStatus;
  responseText: string;
  responseAt: number | null;
  submittedAt: number | null;
  submittedBy: string | null;
  openedAt: number;
  closedAt: number | null;
}

export interface Evidence {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  uploadedAt: number;
  r2Key: string;
}

const DISPUTE_COLUMNS = `d.id, d.merchant_id AS merchantId, m.name AS merchantName, t.reference AS paymentReference, t.amount AS paymentAmount,
  t.channel AS paymentChannel, t.network AS paymentNetwork, t.created_at AS paymentCreatedAt, d.reason_code AS reasonCode, d.amount,
  d.evidence_due_at AS evidenceDueAt, d.status, d.response_text AS responseText, d.response_at AS responseAt, d.submitted_at AS submittedAt,
  d.submitted_by AS submittedBy, d.opened_at AS openedAt, d.closed_at AS closedAt`;
const DISPUTE_FROM = `disputes d
  JOIN merchants m ON m.id = d.merchant_id AND m.business_id = d.business_id
  JOIN transactions t ON t.id = d.transaction_id AND t.business_id = d.business_id`;

// ---------------------------------------------------------------- staff (/disputes)

export interface DisputeQuery extends PageQuery {
  status?: DisputeStatus;
}

/**
 * The business's disputes: open ones first (nearest deadline first), then the rest by deadline, newest first.
 * The key is (rank, due, id): rank 0 for open, 1 for the others; the cursor carries all three.
 */
export async function listDisputes(tenant: Tenant, query: DisputeQuery = {}): Promise<Page<Dispute>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 3);
  const rank = "(CASE WHEN d.status = 'open' THEN 0 ELSE 1 END)";
  // Open: the nearest deadline first; the others: the latest first (a negated key sorts them the same way ascending).
  const due = "(CASE WHEN d.status = 'open' THEN d.evidence_due_at ELSE -d.evidence_due_at END)";
  const where = ["d.business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.status) {
    where.push("d.status = ?");
    binds.push(query.status);
  }
  if (after) {
    where.push(`(${rank}, ${due}, d.id) > (?, ?, ?)`);
    binds.push(...after);
  }
  const { results } = await db
    .prepare(
      `SELECT ${DISPUTE_COLUMNS}, ${rank} AS sortRank, ${due} AS sortDue FROM ${DISPUTE_FROM} WHERE ${where.join(" AND ")} ORDER BY sortRank, sortDue, d.id LIMIT ?`,
    )
    .bind(...binds, size + 1)
    .all<Dispute & { sortRank: number; sortDue: number }>();
  return toPage(results, size, (row) => [row.sortRank, row.sortDue, row.id]);
}

/**
 * The business's disputes whose id begins with `text` or whose payment's reference is `text` (any case), newest
 * first, at most `limit` (the top bar's search).
 */
export async function findDisputes(tenant: Tenant, text: string, limit: number): Promise<Dispute[]> {
  const { db } = tenant;
  const id = textStartsWith("d.id", text);
  const { results } = await db
    .prepare(
      `SELECT ${DISPUTE_COLUMNS} FROM ${DISPUTE_FROM} WHERE d.business_id = ? AND (${id.sql} OR t.reference = ? COLLATE NOCASE)
       ORDER BY d.opened_at DESC, d.id DESC LIMIT ?`,
    )
    .bind(tenant.businessId, ...id.binds, text, Math.max(1, Math.floor(limit)))
    .all<Dispute>();
  return results;
}

/** How many disputes need a response in one business, and the nearest deadline of them. */
export interface DisputesNeedingResponse {
  count: number;
  nearestDueAt: number | null;
}

/**
 * The one count of disputes that need a response: open and still answerable (evidence due after now), whatever the
 * deadline. The dashboard, the platform's overview and its business page all read it from here, so they cannot
 * disagree; one statement for any number of businesses of one database (their ids bound as one JSON array, decision
 * 033), grouped by business, for the overview's batch. Read its answer with disputesNeedingResponseOf.
 */
export function disputesNeedingResponseStatement(db: Db, businessIds: readonly string[], now: number): D1PreparedStatement {
  return db
    .prepare(
      `SELECT business_id AS businessId, COUNT(*) AS count, MIN(evidence_due_at) AS nearestDueAt FROM disputes
       WHERE business_id IN (SELECT value FROM json_each(?1)) AND status = 'open' AND evidence_due_at > ?2 GROUP BY business_id`,
    )
    .bind(JSON.stringify(businessIds), now);
}

/** The statement's answer by business id; a business with none is left out (it has 0). */
export function disputesNeedingResponseOf(result: D1Result | undefined): Map<string, DisputesNeedingResponse> {
  const rows = (result?.results ?? []) as (DisputesNeedingResponse & { businessId: string })[];
  return new Map(rows.map((row) => [row.businessId, { count: row.count, nearestDueAt: row.nearestDueAt }]));
}

/** The business's disputes needing a response (the dashboard). */
export async function disputesNeedingResponse(tenant: Tenant, now: number): Promise<DisputesNeedingResponse> {
  const result = await disputesNeedingResponseStatement(tenant.db, [tenant.businessId], now).all();
  return disputesNeedingResponseOf(result).get(tenant.businessId) ?? { count: 0, nearestDueAt: null };
}

export type DisputeDetail = Dispute & { evidence: Evidence[]; submittedByName: string | null };

export async function getDispute(tenant: Tenant, id: string): Promise<DisputeDetail | null> {
  const { db } = tenant;
  const [dispute, evidence] = await db.batch([
    db
      .prepare(
        `SELECT ${DISPUTE_COLUMNS}, u.name AS submittedByName FROM ${DISPUTE_FROM} LEFT JOIN users u ON u.id = d.submitted_by WHERE d.business_id = ? AND d.id = ?`,
      )
      .bind(tenant.businessId, id),
    db
      .prepare(
        `SELECT id, file_name AS fileName, content_type AS contentType, size, uploaded_at AS uploadedAt, r2_key AS r2Key
         FROM dispute_evidence WHERE business_id = ? AND dispute_id = ? ORDER BY uploaded_at, id`,
      )
      .bind(tenant.businessId, id),
  ]);
  const row = dispute?.results[0] as (Dispute & { submittedByName: string | null }) | undefined;
  if (!row) return null;
  return { ...row, evidence: (evidence?.results ?? []) as Evidence[] };
}

/** A dispute's evidence files, oldest first (GET /api/v1/disputes/{id}); none for another business's dispute. */
export async function listDisputeEvidence({ businessId, db }: BusinessDb, disputeId: string): Promise<Evidence[]> {
  const { results } = await db
    .prepare(
      `SELECT id, file_name AS fileName, content_type AS contentType, size, uploaded_at AS uploadedAt, r2_key AS r2Key
       FROM dispute_evidence WHERE business_id = ? AND dispute_id = ? ORDER BY uploaded_at, id`,
    )
    .bind(businessId, disputeId)
    .all<Evidence>();
  return results;
}

/** One evidence file's row, only of a dispute of this business. */
export async function getEvidence(tenant: Tenant, disputeId: string, evidenceId: string): Promise<Evidence | null> {
  const { db } = tenant;
  return db
    .prepare(
      `SELECT id, file_name AS fileName, content_type AS contentType, size, uploaded_at AS uploadedAt, r2_key AS r2Key
       FROM dispute_evidence WHERE business_id = ? AND dispute_id = ? AND id = ?`,
    )
    .bind(tenant.businessId, disputeId, evidenceId)
    .first<Evidence>();
}

/** The dispute for a change by staff: their role may answer, it is this business's, and it is still answerable. */
export async function answerableDispute(tenant: Tenant, id: string, now: number): Promise<DisputeDetail> {
  if (!can(tenant.role, "respond:dispute")) throw new ForbiddenError("Your role cannot answer disputes.");
  const dispute = await getDispute(tenant, id);
  if (!dispute) throw new NotFoundError("Dispute");
  if (dispute.status !== "open") throw new RuleError("This dispute's response was already submitted: it can no longer be changed.");
  if (now >= dispute.evidenceDueAt) throw new RuleError("The deadline for evidence has passed: the response can no longer be changed.");
  return dispute;
}

/** A guard for a staff change's batch: the dispute is still open and before its deadline when the batch runs. */
function stillAnswerable(tenant: Tenant, db: Db, id: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO batch_guards (ok, reason) VALUES (coalesce((SELECT 1 FROM disputes WHERE business_id = ? AND id = ? AND status = 'open' AND evidence_due_at > ?), 0), 'answerable')",
    )
    .bind(tenant.businessId, id, now);
}

async function answerBatch(tenant: Tenant, id: string, now: number, statements: D1PreparedStatement[]): Promise<void> {
  const { db } = tenant;
  try {
    await db.batch([stillAnswerable(tenant, db, id, now), ...statements, clearBatchGuardsStatement(db)]);
  } catch (error) {
    // Closed, submitted or past its deadline between the read and the batch.
    if (error instanceof Error && /CHECK constraint failed/.test(error.message)) await answerableDispute(tenant, id, Date.now());
    throw error;
  }
}

export async function saveResponse(tenant: Tenant, meta: RequestMeta, id: string, text: string, now: number): Promise<void> {
  const { db } = tenant;
  const dispute = await answerableDispute(tenant, id, now);
  await answerBatch(tenant, id, now, [
    db
      .prepare("UPDATE disputes SET response_text = ?, response_by = ?, response_at = ? WHERE business_id = ? AND id = ?")
      .bind(text, tenant.userId, now, tenant.businessId, id),
    auditStatement(tenant, meta, {
      action: "dispute.respond",
      entity: "dispute",
      entityId: id,
      before: { response: dispute.responseText },
      after: { response: text },
    }),
  ]);
}

export interface NewEvidence {
  id: string;
  r2Key: string;
  fileName: string;
  contentType: string;
  size: number;
}

/** The row of a file already in R2 (the caller put it first), with its audit entry. */
export async function addEvidence(tenant: Tenant, meta: RequestMeta, disputeId: string, file: NewEvidence, now: number): Promise<void> {
  const { db } = tenant;
  await answerBatch(tenant, disputeId, now, [
    db
      .prepare(`INSERT INTO batch_guards (ok, reason) VALUES ((SELECT COUNT(*) < ? FROM dispute_evidence WHERE business_id = ? AND dispute_id = ?), 'files')`)
      .bind(MAX_EVIDENCE_FILES, tenant.businessId, disputeId),
    db
      .prepare(
        `INSERT INTO dispute_evidence (id, business_id, dispute_id, r2_key, file_name, content_type, size, uploaded_by, uploaded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(file.id, tenant.businessId, disputeId, file.r2Key, file.fileName, file.contentType, file.size, tenant.userId || null, now),
    // A person on the dispute's page, or no one (the Partner API: the request id ties the entry to the key's request).
    signInAuditStatement({ userId: tenant.userId || null, businessId: tenant.businessId }, db, meta, {
      action: "dispute.evidence_add",
      entity: "dispute",
      entityId: disputeId,
      after: { evidenceId: file.id, fileName: file.fileName, contentType: file.contentType, size: file.size },
    }),
  ]);
}

/** Submits the response: from now on it is read-only. It needs a written response. */
export async function submitResponse(tenant: Tenant, meta: RequestMeta, id: string, now: number): Promise<void> {
  const { db } = tenant;
  const dispute = await answerableDispute(tenant, id, now);
  if (dispute.responseText.trim() === "") throw new RuleError("Write a response before submitting it.");
  await answerBatch(tenant, id, now, [
    db
      .prepare("UPDATE disputes SET status = 'submitted', submitted_by = ?, submitted_at = ? WHERE business_id = ? AND id = ? AND status = 'open'")
      .bind(tenant.userId, now, tenant.businessId, id),
    auditStatement(tenant, meta, {
      action: "dispute.submit",
      entity: "dispute",
      entityId: id,
      before: { status: "open" },
      after: { status: "submitted", evidence: dispute.evidence.length },
    }),
  ]);
}

/** What a payment's detail says of its disputes: each one's status, amount and reason code, oldest first. */
export interface PaymentDispute {
  id: string;
  status: DisputeStatus;
  amount: number;
  reasonCode: string;
  openedAt: number;
}

export async function listPaymentDisputes(tenant: BusinessDb, transactionId: number): Promise<PaymentDispute[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT id, status, amount, reason_code AS reasonCode, opened_at AS openedAt FROM disputes
       WHERE business_id = ? AND transaction_id = ? ORDER BY opened_at, id`,
    )
    .bind(tenant.businessId, transactionId)
    .all<PaymentDispute>();
  return results;
}
