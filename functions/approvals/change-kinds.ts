// The kinds of maker-checker request (approvals.db.ts makes them, change-decision.db.ts decides them): the request's shape, the stale
// refusal and, per kind, the table, the columns a request may set and the permission to ask. Pure: no SQL here.
import type { Permission } from "../permissions";
import { MERCHANT_COLUMNS } from "../merchants/merchant-columns";
import { POINT_OF_SALE_COLUMNS } from "../merchants/points-of-sale.db";
import { SETTLEMENT_ACCOUNT_COLUMNS } from "../settlement/settlement-accounts.db";
import { RuleError } from "../tenancy/tenant";

export const APPROVAL_KINDS = ["employee", "merchant", "point_of_sale", "settlement_account", "security_policy"] as const;
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
}

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
  },
};
