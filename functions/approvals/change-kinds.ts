// The kinds of maker-checker request (approvals.db.ts makes them, change-decision.db.ts decides them): the request's shape, the stale
// refusal and, per kind, the table, the columns a request may set, the permission to ask, how a request is named and
// shown, and whether test mode takes it. Pure: no SQL here; what a kind does with SQL is its steps' (change-steps.ts).
import type { Permission } from "../permissions";
import { MERCHANT_COLUMNS } from "../merchants/merchant-columns";
import { POINT_OF_SALE_COLUMNS } from "../merchants/points-of-sale.db";
import { SETTLEMENT_ACCOUNT_COLUMNS } from "../settlement/settlement-accounts.db";
import { RuleError } from "../tenancy/tenant";
import type { NameKind } from "../lists/names.db";

export const APPROVAL_KINDS = ["employee", "merchant", "point_of_sale", "settlement_account", "security_policy", "terminal"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
/** The requests that move money (decided with money-decision.db.ts's specs): the queue's other kinds. */
export const MONEY_REQUEST_KINDS = ["transfer", "refund"] as const;
export type MoneyRequestKind = (typeof MONEY_REQUEST_KINDS)[number];
/** Every kind of request in the queue. */
export type RequestKind = ApprovalKind | MoneyRequestKind;
export type ApprovalAction = "create" | "update" | "deactivate";
export type ApprovalStatus = "pending" | "approved" | "rejected" | "stale";
export type ChangeValues = Record<string, string | number | null>;

export interface ApprovalRequest {
  id: string;
  kind: ApprovalKind;
  action: ApprovalAction;
  targetId: string;
  targetVersion: number | null;
  before: ChangeValues | null;
  after: ChangeValues;
  makerId: string;
  makerName: string;
  madeAt: string;
  status: ApprovalStatus;
  checkerId: string | null;
  checkerName: string | null;
  decidedAt: string | null;
  reason: string | null;
}

/** The request was made against an older version of its target; it has been marked stale. */
export class StaleRequestError extends RuleError {
  override name = "StaleRequestError";
  constructor() {
    super("The record changed after this request was made. The request is now stale: make a new one from the current values.");
  }
}

/**
 * How the queue and the request page name what a request concerns: in fixed words (a setting of the business's own), or
 * by its target, which namesOf names; a create names itself in its after values (`ofCreate`, default their name).
 */
export type SubjectNaming = { fixed: string } | { namesOf: NameKind; ofCreate?(after: ChangeValues): string | null };

/** A settlement account as its holder and number, as namesOf's "settlement_account_holder" names it. */
function accountHolder(values: ChangeValues): string | null {
  const name = values.account_name;
  if (name === undefined || name === null) return null;
  const where = [values.provider, values.account_number].filter((part) => part !== undefined && part !== null && part !== "").join(" ");
  return where ? `${String(name)} (${where})` : String(name);
}

/** What a money request concerns, named from its after values (its specs are money-decision.db.ts's). */
export const MONEY_SUBJECTS: Partial<Record<MoneyRequestKind, (after: ChangeValues) => string | null>> = {
  // A refund names the payment it gives back (functions/refunds/refund-requests.db.ts).
  refund: (after) => (typeof after.payment_reference === "string" ? `Payment ${after.payment_reference}` : null),
};

export interface KindSpec {
  table: string;
  idColumn: "id" | "user_id";
  /** Audit entity name, and the noun in messages. */
  entity: string;
  noun: string;
  request: Permission;
  /** Columns a create sets (all of them are required). */
  createColumns: readonly string[];
  /** Columns an update may change. */
  updateColumns: readonly string[];
  inactive: string;
  idPrefix: string;
  /** The merchant a new row belongs to must be this business's. */
  underMerchant: boolean;
  subject: SubjectNaming;
  /** Why test mode refuses requests of this kind (its rows are the live business's); none: test mode takes them. */
  testModeRefusal?: string;
  /** The columns a request page shows of the target, in the order a person reads them (default: the create columns and the status). */
  recordColumns?: readonly string[];
}

/** Why test mode refuses employee changes. */
export const TEST_MODE_PEOPLE = "Test mode has your live business's people. Invite people and change their roles in live data.";

export const SPECS: Record<ApprovalKind, KindSpec> = {
  merchant: {
    table: "merchants",
    idColumn: "id",
    entity: "merchant",
    noun: "merchant",
    request: "request:merchant",
    createColumns: MERCHANT_COLUMNS,
    updateColumns: MERCHANT_COLUMNS.filter((c) => c !== "code"),
    inactive: "inactive",
    idPrefix: "mer",
    underMerchant: false,
    subject: { namesOf: "merchant" },
  },
  point_of_sale: {
    table: "points_of_sale",
    idColumn: "id",
    entity: "point_of_sale",
    noun: "point of sale",
    request: "request:point_of_sale",
    createColumns: POINT_OF_SALE_COLUMNS,
    updateColumns: POINT_OF_SALE_COLUMNS.filter((c) => c !== "merchant_id"),
    inactive: "inactive",
    idPrefix: "pos",
    underMerchant: true,
    subject: { namesOf: "point_of_sale" },
  },
  settlement_account: {
    table: "settlement_accounts",
    idColumn: "id",
    entity: "settlement_account",
    noun: "settlement account",
    request: "request:settlement_account",
    createColumns: SETTLEMENT_ACCOUNT_COLUMNS,
    updateColumns: SETTLEMENT_ACCOUNT_COLUMNS.filter((c) => c !== "merchant_id"),
    inactive: "inactive",
    idPrefix: "sa",
    underMerchant: true,
    subject: { namesOf: "settlement_account_holder", ofCreate: accountHolder },
  },
  // The business's security policy: one row a business, only ever updated; a Super Administrator asks.
  security_policy: {
    table: "business_policies",
    idColumn: "id",
    entity: "security_policy",
    noun: "security policy",
    request: "request:security_policy",
    createColumns: ["decisions_need_passkey"],
    updateColumns: ["decisions_need_passkey"],
    inactive: "inactive",
    idPrefix: "pol",
    underMerchant: false,
    // The policy is the business's own: what it concerns is its one setting.
    subject: { fixed: "Passkeys for every decision" },
  },
  // A terminal's assignment to a point of sale (decision 011, amended): whose money its payments become. Its steps
  // (terminal-assignment.db.ts) open the assignment; unassigning and blocking act at once, without a request.
  terminal: {
    table: "terminals",
    idColumn: "id",
    entity: "terminal",
    noun: "terminal",
    request: "manage:terminal",
    createColumns: [],
    updateColumns: ["status", "merchant_id", "point_of_sale_id"],
    inactive: "retired",
    idPrefix: "trm",
    underMerchant: false,
    subject: { namesOf: "terminal" },
    recordColumns: ["serial", "model", "status", "merchant_id", "point_of_sale_id"],
  },
  employee: {
    table: "memberships",
    idColumn: "user_id",
    entity: "employee",
    noun: "employee",
    request: "request:employee",
    createColumns: ["email", "name", "gender", "phone", "role"],
    updateColumns: ["role"],
    inactive: "deactivated",
    idPrefix: "usr",
    underMerchant: false,
    subject: { namesOf: "person" },
    // Test mode's people are the live business's (decision 045): an invitation or a role change there would touch real people.
    testModeRefusal: TEST_MODE_PEOPLE,
    // A person's record reads as who they are first, then their access.
    recordColumns: ["name", "email", "gender", "phone", "role", "status"],
  },
};
