// The statements that apply an approved request to its target (approvals.db.ts puts them in the approval's batch):
// a create inserts the row (an invitation its person, phones and membership), an update or a deactivation changes
// the row only at the version the request was made against.
import { guardStatement } from "../platform/batch-guards.db";
import type { CoreAccount } from "../tenancy/directory.db";
import type { Tenant } from "../tenancy/tenant";
import type { ApprovalRequest, KindSpec } from "./change-kinds";

export function applyStatements(tenant: Tenant, spec: KindSpec, request: ApprovalRequest, at: string, account: CoreAccount | null): D1PreparedStatement[] {
  const { db } = tenant;
  const after = request.after;
  const statements: D1PreparedStatement[] = [];
  const makesPrimary = request.kind === "settlement_account" && Number(after.is_primary) === 1;
  if (makesPrimary) {
    const merchantId = request.action === "create" ? after.merchant_id : null;
    statements.push(
      db
        .prepare(
          `UPDATE settlement_accounts SET is_primary = 0, updated_at = ?, version = version + 1
           WHERE business_id = ? AND is_primary = 1 AND id <> ?
             AND merchant_id = coalesce(?, (SELECT merchant_id FROM settlement_accounts WHERE id = ? AND business_id = ?))`,
        )
        .bind(at, tenant.businessId, request.targetId, merchantId, request.targetId, tenant.businessId),
    );
  }

  if (request.action === "create") {
    if (spec.underMerchant) {
      statements.push(
        guardStatement(
          db,
          "SELECT 1 FROM merchants WHERE id = ? AND business_id = ? AND status = 'active'",
          "merchant missing or inactive",
          after.merchant_id,
          tenant.businessId,
        ),
      );
    }
    if (request.kind === "employee") {
      // users and user_phones have no business: they are written only for this business's request, still pending, and
      // never from what the business typed for a person who has an account (decision 029). An existing account's copy
      // here is the core's: their own name and the numbers they proved. A new person is as invited, with the invited
      // number as their account's first way to sign in. What was typed for the phone is this business's own contact
      // number for the membership either way.
      const forThisRequest = "FROM approval_requests WHERE id = ? AND business_id = ? AND kind = 'employee' AND status = 'pending'";
      const person = account
        ? { name: account.name, gender: account.gender, status: account.status, createdAt: account.createdAt }
        : { name: after.name, gender: after.gender, status: "active", createdAt: at };
      const phones = account ? account.phones : [{ msisdn: String(after.phone), createdAt: at, linkedBy: "invitation" as const }];
      statements.push(
        db
          .prepare(`INSERT INTO users (id, email, name, gender, status, created_at) SELECT ?, ?, ?, ?, ?, ? ${forThisRequest} ON CONFLICT DO NOTHING`)
          .bind(request.targetId, after.email, person.name, person.gender, person.status, person.createdAt, request.id, tenant.businessId),
        ...phones.map((phone) =>
          db
            .prepare(`INSERT OR IGNORE INTO user_phones (user_id, msisdn, created_at, linked_by) SELECT ?, ?, ?, ? ${forThisRequest}`)
            .bind(request.targetId, phone.msisdn, phone.createdAt, phone.linkedBy, request.id, tenant.businessId),
        ),
        db
          .prepare(
            "INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version, contact_phone) VALUES (?, ?, ?, 'active', ?, ?, 1, ?)",
          )
          .bind(tenant.businessId, request.targetId, after.role, at, at, after.phone),
      );
    } else {
      const columns = spec.createColumns;
      statements.push(
        db
          .prepare(
            `INSERT INTO ${spec.table} (id, business_id, ${columns.join(", ")}, status, created_at, updated_at, version)
             VALUES (?, ?, ${columns.map(() => "?").join(", ")}, 'active', ?, ?, 1)`,
          )
          .bind(request.targetId, tenant.businessId, ...columns.map((c) => after[c] ?? null), at, at),
      );
    }
  } else {
    statements.push(
      guardStatement(
        db,
        `SELECT version = ? FROM ${spec.table} WHERE ${spec.idColumn} = ? AND business_id = ?`,
        "target changed",
        request.targetVersion,
        request.targetId,
        tenant.businessId,
      ),
    );
    const columns = Object.keys(after);
    statements.push(
      db
        .prepare(
          `UPDATE ${spec.table} SET ${columns.map((c) => `${c} = ?`).join(", ")}, updated_at = ?, version = version + 1
           WHERE ${spec.idColumn} = ? AND business_id = ? AND version = ?`,
        )
        .bind(...columns.map((c) => after[c] ?? null), at, request.targetId, tenant.businessId, request.targetVersion),
    );
  }
  return statements;
}
