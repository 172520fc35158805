import { clearBatchGuardsStatement, guardStatement } from "../plumbing/batch-guards.db";
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textStartsWith } from "../lists/search";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type BusinessDb, type RequestMeta, type Tenant } from "../tenancy/tenant";

export const TERMINAL_STATUSES = ["in_stock", "assigned", "active", "blocked", "faulty", "retired"] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export interface Terminal {
  id: string;
  serial: string;
  model: string;
  softwareVersion: string;
  status: TerminalStatus;
  merchantId: string | null;
  pointOfSaleId: string | null;
  lastSeenAt: number | null;
  /** From the terminal's last heartbeat (Partner API); null until it sends one. */
  batteryPercent: number | null;
  signalPercent: number | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A Terminal's columns (the webhook sweep reads them too: functions/webhooks/sweep.db.ts). */
export const TERMINAL_COLUMNS = `id, serial, model, software_version AS softwareVersion, status, merchant_id AS merchantId,
  point_of_sale_id AS pointOfSaleId, last_seen_at AS lastSeenAt, battery_percent AS batteryPercent, signal_percent AS signalPercent, created_at AS createdAt, updated_at AS updatedAt, version`;
const SELECT = `SELECT ${TERMINAL_COLUMNS} FROM terminals`;

export async function getTerminal(tenant: Tenant, id: string): Promise<Terminal | null> {
  const { db } = tenant;
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Terminal>();
}

export interface TerminalQuery extends PageQuery {
  status?: TerminalStatus;
  merchantId?: string;
  pointOfSaleId?: string;
  /** The start of a serial number. */
  serial?: string;
  /** Only terminals in service not seen since this instant (epoch ms): see countSilentTerminals. */
  silentSince?: number;
  /** By serial (default), or by last seen: never-seen first, then the longest silent. */
  sort?: "serial" | "last_seen";
}

/**
 * The silence rule, one place for the count, the list and the terminal.silent sweep (webhooks/sweep.db.ts): in service,
 * and neither a sign from it nor its assignment since `since`. A terminal just assigned has had no chance to be seen
 * ("Last seen: Never" is its state, not a fault): it turns silent a full silence after it was put in place, unless it
 * is seen meanwhile; one moved to another place gets the same time to be seen there. Binds one value, `since`.
 */
export const SILENT_SQL = `terminals.status IN ('assigned', 'active') AND max(
    coalesce(terminals.last_seen_at, 0),
    coalesce((SELECT unixepoch(a.assigned_at) * 1000 FROM terminal_assignments a WHERE a.terminal_id = terminals.id AND a.unassigned_at IS NULL), 0)
  ) < ?`;

/** The fleet, by serial number or by last seen. */
export async function listTerminals(tenant: Tenant, query: TerminalQuery = {}): Promise<Page<Terminal>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.status) {
    where.push("status = ?");
    binds.push(query.status);
  }
  if (query.merchantId) {
    where.push("merchant_id = ?");
    binds.push(query.merchantId);
  }
  if (query.pointOfSaleId) {
    where.push("point_of_sale_id = ?");
    binds.push(query.pointOfSaleId);
  }
  if (query.serial?.trim()) {
    const match = textStartsWith("serial", query.serial.trim().toUpperCase());
    where.push(match.sql);
    binds.push(...match.binds);
  }
  if (query.silentSince !== undefined) {
    where.push(SILENT_SQL);
    binds.push(query.silentSince);
  }
  const filterWhere = where.join(" AND ");
  const filterBinds = [...binds];
  const byLastSeen = query.sort === "last_seen";
  let order = "serial";
  let keyOf: (t: Terminal) => (string | number)[] = (t) => [t.serial];
  if (byLastSeen) {
    // Never seen (NULL) sorts first; the cursor writes it as -1, below every instant.
    order = "last_seen_at, id";
    keyOf = (t) => [t.lastSeenAt ?? -1, t.id];
    const after = decodeCursor(query.after, 2);
    if (after) {
      const [seen, id] = after;
      if (seen === -1) {
        where.push("((last_seen_at IS NULL AND id > ?) OR last_seen_at IS NOT NULL)");
        binds.push(id);
      } else {
        where.push("(last_seen_at > ? OR (last_seen_at = ? AND id > ?))");
        binds.push(seen, seen, id);
      }
    }
  } else {
    const after = decodeCursor(query.after, 1);
    if (after) {
      where.push("serial > ?");
      binds.push(after[0]);
    }
  }
  const [{ results }, total] = await Promise.all([
    db
      .prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ?`)
      .bind(...binds, size + 1)
      .all<Terminal>(),
    query.withTotal
      ? db
          .prepare(`SELECT COUNT(*) AS n FROM terminals WHERE ${filterWhere}`)
          .bind(...filterBinds)
          .first<number>("n")
      : undefined,
  ]);
  const page = toPage(results, size, keyOf);
  return query.withTotal ? { ...page, total: total ?? 0 } : page;
}

/**
 * A page of the business's terminals for the Partner API, by serial (unique, and never changed): terminals_by_serial,
 * or the index of the filter (terminals_by_status, _by_merchant, _by_point_of_sale), each ordered by serial.
 * `after` is the last row's serial; `limit` rows are asked for plus one, to know if more follow.
 */
export async function listTerminalsPage(
  { businessId, db }: BusinessDb,
  filter: { status?: TerminalStatus; merchantId?: string; pointOfSaleId?: string },
  after: readonly [serial: string] | null,
  limit: number,
): Promise<Terminal[]> {
  const where = ["business_id = ?"];
  const binds: unknown[] = [businessId];
  const equal: [string, string | undefined][] = [
    ["status", filter.status],
    ["merchant_id", filter.merchantId],
    ["point_of_sale_id", filter.pointOfSaleId],
  ];
  for (const [column, value] of equal) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    binds.push(value);
  }
  if (after) {
    where.push("serial > ?");
    binds.push(after[0]);
  }
  const { results } = await db
    .prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY serial LIMIT ?`)
    .bind(...binds, limit + 1)
    .all<Terminal>();
  return results;
}

/** Terminals in service that have not been seen since `since` (epoch ms). */
export async function countSilentTerminals(tenant: BusinessDb, since: number): Promise<number> {
  const { db } = tenant;
  const n = await db.prepare(`SELECT COUNT(*) AS n FROM terminals WHERE business_id = ? AND ${SILENT_SQL}`).bind(tenant.businessId, since).first<number>("n");
  return n ?? 0;
}

/** The merchant and point of sale a terminal stands at, by name. */
export interface TerminalPlace {
  pointOfSaleId: string;
  pointOfSaleName: string;
  merchantId: string;
  merchantName: string;
}

/**
 * Names of the points of sale (and their merchants) of a page of terminals, in
 * one query whatever the page size: a lookup per row would be a query per row.
 */
export async function terminalPlaces(tenant: Tenant, terminals: readonly Pick<Terminal, "pointOfSaleId">[]): Promise<Map<string, TerminalPlace>> {
  const { db } = tenant;
  const ids = [...new Set(terminals.map((t) => t.pointOfSaleId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT p.id AS pointOfSaleId, p.name AS pointOfSaleName, m.id AS merchantId, m.name AS merchantName
       FROM points_of_sale p JOIN merchants m ON m.id = p.merchant_id AND m.business_id = p.business_id
       WHERE p.business_id = ? AND p.id IN (SELECT value FROM json_each(?))`,
    )
    .bind(tenant.businessId, JSON.stringify(ids))
    .all<TerminalPlace>();
  return new Map(results.map((place) => [place.pointOfSaleId, place]));
}

/** Merchants that have terminals now, by name, for the fleet's merchant filter. */
export async function listTerminalMerchants(tenant: Tenant): Promise<{ id: string; name: string }[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT id, name FROM merchants WHERE business_id = ?1
         AND id IN (SELECT merchant_id FROM terminals WHERE business_id = ?1 AND merchant_id IS NOT NULL)
       ORDER BY name COLLATE NOCASE, id LIMIT 1000`,
    )
    .bind(tenant.businessId)
    .all<{ id: string; name: string }>();
  return results;
}

export interface TerminalAssignment {
  id: number;
  pointOfSaleId: string;
  pointOfSaleName: string;
  merchantId: string;
  merchantName: string;
  assignedByName: string | null;
  assignedAt: string;
  unassignedAt: string | null;
}

/** Where a terminal has stood, newest first. */
export async function listTerminalAssignments(tenant: Tenant, terminalId: string, limit = 20): Promise<TerminalAssignment[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT a.id, a.point_of_sale_id AS pointOfSaleId, p.name AS pointOfSaleName, p.merchant_id AS merchantId, m.name AS merchantName,
         u.name AS assignedByName, a.assigned_at AS assignedAt, a.unassigned_at AS unassignedAt
       FROM terminal_assignments a
       JOIN points_of_sale p ON p.id = a.point_of_sale_id AND p.business_id = a.business_id
       JOIN merchants m ON m.id = p.merchant_id AND m.business_id = a.business_id
       LEFT JOIN memberships am ON am.business_id = a.business_id AND am.user_id = a.assigned_by LEFT JOIN users u ON u.id = am.user_id
       WHERE a.business_id = ? AND a.terminal_id = ?
       ORDER BY a.assigned_at DESC, a.id DESC LIMIT ?`,
    )
    .bind(tenant.businessId, terminalId, Math.min(100, Math.max(1, limit)))
    .all<TerminalAssignment>();
  return results;
}

// ---------------------------------------------------------------- changing
// Unassigning, blocking and unblocking are operational (no maker-checker): a person with manage:terminal acts at once,
// gives a reason, and the audit log keeps it. Assigning decides whose money the payments become: it is a change
// request (approvals/terminal-assignment.db.ts), decided by another person.
// Each change is one D1 batch: guard rows (batch_guards' CHECK (ok = 1) rolls
// the batch back) check the version the person saw and the state the change
// starts from, then the change, the assignment row, the audit entry.

export const TERMINAL_ACTIONS = ["assign", "unassign", "block", "unblock"] as const;
export type TerminalAction = (typeof TERMINAL_ACTIONS)[number];

/** Statuses each action starts from. */
const ACTION_FROM: Record<TerminalAction, readonly TerminalStatus[]> = {
  assign: ["in_stock"],
  unassign: ["assigned", "active", "blocked", "faulty"],
  block: ["in_stock", "assigned", "active", "faulty"],
  unblock: ["blocked"],
};

/** Whether the action can start from the terminal as it is (the UI offers only these). */
export function canStart(action: TerminalAction, terminal: Pick<Terminal, "status" | "pointOfSaleId">): boolean {
  if (!ACTION_FROM[action].includes(terminal.status)) return false;
  return action === "unassign" ? terminal.pointOfSaleId !== null : true;
}

const REFUSED: Record<TerminalAction, string> = {
  assign: "Only a terminal in stock can be assigned. Unassign it first.",
  unassign: "This terminal is not at a point of sale.",
  block: "This terminal cannot be blocked in its current state.",
  unblock: "This terminal is not blocked.",
};

/** Someone else changed the terminal after this person loaded it. */
export class TerminalChangedError extends RuleError {
  override name = "TerminalChangedError";
  constructor() {
    super("Someone else changed this terminal while you were looking at it. Check its current state and try again.");
  }
}

export const MAX_REASON_LENGTH = 500;

export interface TerminalChange {
  terminalId: string;
  /** The version the person saw. */
  version: number;
  reason: string;
}

/** What acts at once; an assignment is a request another person approves (approvals/terminal-requests.ts, decision 011). */
export type ImmediateAction = Exclude<TerminalAction, "assign">;

/** Applies one action to a terminal, audited, all or nothing. Returns the terminal as it now is. */
export async function changeTerminal(tenant: Tenant, meta: RequestMeta, action: ImmediateAction, change: TerminalChange): Promise<Terminal> {
  const { db } = tenant;
  if (!can(tenant.role, "manage:terminal")) throw new ForbiddenError("Your role cannot change terminals.");
  const reason = change.reason.trim();
  if (!reason) throw new RuleError("Give a reason.");
  if (reason.length > MAX_REASON_LENGTH) throw new RuleError(`Keep the reason under ${MAX_REASON_LENGTH} characters.`);
  const terminal = await getTerminal(tenant, change.terminalId);
  if (!terminal) throw new NotFoundError("Terminal");
  if (terminal.version !== change.version) throw new TerminalChangedError();
  if (!canStart(action, terminal)) throw new RuleError(REFUSED[action]);

  const at = nowIso();
  const from = ACTION_FROM[action];
  const statements: D1PreparedStatement[] = [
    guardStatement(
      db,
      `SELECT version = ? AND status IN (${from.map(() => "?").join(", ")}) FROM terminals WHERE id = ? AND business_id = ?`,
      "terminal changed",
      change.version,
      ...from,
      terminal.id,
      tenant.businessId,
    ),
  ];
  const before: Record<string, unknown> = {
    status: terminal.status,
    merchantId: terminal.merchantId,
    pointOfSaleId: terminal.pointOfSaleId,
    version: terminal.version,
  };
  let after: Record<string, unknown>;
  const update = (set: string, ...binds: unknown[]) =>
    db
      .prepare(`UPDATE terminals SET ${set}, updated_at = ?, version = version + 1 WHERE id = ? AND business_id = ? AND version = ?`)
      .bind(...binds, at, terminal.id, tenant.businessId, change.version);

  if (action === "unassign") {
    // A blocked or faulty terminal keeps its status as it comes back; one in service goes back to stock.
    const status = terminal.status === "blocked" || terminal.status === "faulty" ? terminal.status : "in_stock";
    statements.push(
      db
        .prepare("UPDATE terminal_assignments SET unassigned_at = ? WHERE business_id = ? AND terminal_id = ? AND unassigned_at IS NULL")
        .bind(at, tenant.businessId, terminal.id),
      update("status = ?, merchant_id = NULL, point_of_sale_id = NULL", status),
    );
    after = { status, merchantId: null, pointOfSaleId: null, reason };
  } else if (action === "block") {
    statements.push(update("status = 'blocked'"));
    after = { status: "blocked", reason };
  } else {
    // Back in service where it stands, or back to stock when it stands nowhere.
    const status = terminal.pointOfSaleId ? "active" : "in_stock";
    statements.push(update("status = ?", status));
    after = { status, reason };
  }
  statements.push(
    auditStatement(tenant, meta, { action: `terminal.${action}`, entity: "terminal", entityId: terminal.id, before, after }, at),
    clearBatchGuardsStatement(db),
  );

  try {
    await db.batch(statements);
  } catch (error) {
    // A guard (CHECK ok = 1) or the one-open-assignment index refused: say which
    // condition no longer holds, read afresh (the batch left nothing behind).
    const message = error instanceof Error ? error.message : "";
    if (!message.includes("CHECK constraint failed") && !message.includes("terminal_assignments")) throw error;
    const now = await getTerminal(tenant, terminal.id);
    if (!now || now.version !== change.version) throw new TerminalChangedError();
    if (message.includes("terminal_assignments")) throw new RuleError("This terminal already has an open assignment. Unassign it first.");
    throw error;
  }
  return (await getTerminal(tenant, terminal.id))!;
}

/** Active merchants, by name, to choose where a terminal goes. */
export async function listAssignableMerchants(tenant: Tenant): Promise<{ id: string; name: string }[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare("SELECT id, name FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY name COLLATE NOCASE, id LIMIT 1000")
    .bind(tenant.businessId)
    .all<{ id: string; name: string }>();
  return results;
}

/** A merchant's active points of sale, by name; none for a merchant of another business. */
export async function listAssignablePointsOfSale(tenant: Tenant, merchantId: string): Promise<{ id: string; name: string; town: string }[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      "SELECT id, name, town FROM points_of_sale WHERE business_id = ? AND merchant_id = ? AND status = 'active' ORDER BY name COLLATE NOCASE, id LIMIT 1000",
    )
    .bind(tenant.businessId, merchantId)
    .all<{ id: string; name: string; town: string }>();
  return results;
}
