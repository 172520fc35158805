// The rows the seed writes, one interface per table with the column names of
// migrations/ as keys, and the column order the loader inserts them in.
import { MERCHANT_COLUMNS } from "#server/merchants/merchant-columns";

type Value = string | number | null;

export interface BusinessRow {
  id: string;
  name: string;
  identifier: string;
  contact_number: string;
  contact_email: string;
  town: string;
  region: string;
  sector: string;
  status: "active" | "suspended";
  created_at: string;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  gender: "female" | "male" | "unspecified";
  status: "active" | "disabled";
  created_at: string;
}

export interface UserPhoneRow {
  user_id: string;
  msisdn: string;
  created_at: string;
}

export interface MembershipRow {
  business_id: string;
  user_id: string;
  role: string;
  status: "active" | "invited" | "deactivated";
  created_at: string;
  version: number;
  updated_at: string | null;
  contact_phone: string | null;
}

export interface MerchantRow {
  id: string;
  business_id: string;
  code: string;
  name: string;
  trading_name: string;
  tin: string;
  sector: string;
  town: string;
  region: string;
  address: string;
  contact_name: string;
  contact_phone: string;
  contact_email: string;
  status: "active" | "inactive";
  created_at: string;
  updated_at: string;
  version: number;
}

export interface PointOfSaleRow {
  id: string;
  business_id: string;
  merchant_id: string;
  name: string;
  town: string;
  region: string;
  address: string;
  contact_phone: string;
  status: "active" | "inactive";
  created_at: string;
  updated_at: string;
  version: number;
}

export type TerminalStatus = "in_stock" | "assigned" | "active" | "blocked" | "faulty" | "retired";

export interface TerminalRow {
  id: string;
  business_id: string;
  serial: string;
  model: string;
  software_version: string;
  status: TerminalStatus;
  merchant_id: string | null;
  point_of_sale_id: string | null;
  last_seen_at: number | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface TerminalAssignmentRow {
  id: number;
  business_id: string;
  terminal_id: string;
  point_of_sale_id: string;
  assigned_by: string;
  assigned_at: string;
  unassigned_at: string | null;
}

export interface SettlementAccountRow {
  id: string;
  business_id: string;
  merchant_id: string;
  kind: "bank" | "mobile_money";
  provider: string;
  account_number: string;
  account_name: string;
  is_primary: 0 | 1;
  status: "active" | "inactive";
  created_at: string;
  updated_at: string;
  version: number;
}

export interface ApprovalRequestRow {
  id: string;
  business_id: string;
  kind: "employee" | "merchant" | "point_of_sale" | "settlement_account" | "transfer" | "refund";
  action: "create" | "update" | "deactivate";
  target_id: string;
  target_version: number | null;
  before_json: string | null;
  after_json: string;
  maker_id: string;
  made_at: string;
  status: "pending" | "approved" | "rejected" | "stale";
  checker_id: string | null;
  decided_at: string | null;
  reason: string | null;
}

export interface TransactionRow {
  id: number;
  business_id: string;
  reference: string;
  merchant_id: string;
  point_of_sale_id: string;
  terminal_id: string | null;
  channel: "card" | "mobile_money";
  network: string;
  amount: number;
  fee: number;
  status: "successful" | "failed" | "reversed";
  card_bin: string | null;
  card_last4: string | null;
  customer_msisdn: string | null;
  created_at: number;
  cleared_at: number | null;
}

export interface LedgerAccountRow {
  id: string;
  business_id: string;
  merchant_id: string | null;
  kind: string;
}

export interface LedgerEntryRow {
  id: number;
  business_id: string;
  posting_id: string;
  account_id: string;
  amount: number;
  transaction_id: number | null;
  transfer_id: string | null;
  settlement_id: string | null;
  memo: string;
  posted_at: number;
}

export interface SettlementRow {
  id: string;
  business_id: string;
  merchant_id: string;
  settlement_account_id: string;
  period_start: number;
  period_end: number;
  gross: number;
  fees: number;
  net: number;
  status: "pending" | "paid" | "failed";
  reference: string;
  attempts: number;
  created_at: string;
  paid_at: string | null;
}

export interface SettlementItemRow {
  settlement_id: string;
  transaction_id: number;
}

export interface DailyRollupRow {
  business_id: string;
  day: string;
  merchant_id: string;
  point_of_sale_id: string;
  terminal_id: string;
  channel: "card" | "mobile_money";
  network: string;
  status: "successful" | "failed" | "reversed";
  count: number;
  amount: number;
  fee: number;
}

/** The examples' records (./api-examples.ts): columns the seed leaves out take the table's defaults. */
export interface DisputeRow {
  id: string;
  business_id: string;
  merchant_id: string;
  transaction_id: number;
  reason_code: string;
  amount: number;
  evidence_due_at: number;
  status: "open";
  opened_at: number;
}

export interface RefundRow {
  id: string;
  business_id: string;
  transaction_id: number;
  merchant_id: string;
  amount: number;
  reason: string;
  status: "pending_approval";
  idempotency_key: string;
  requested_by: string;
  created_at: string;
}

export interface WebhookEventRow {
  id: string;
  business_id: string;
  type: string;
  payload: string;
  happened_at: number;
  created_at: number;
}

export interface WebhookEndpointRow {
  id: string;
  business_id: string;
  url: string;
  description: string;
  event_types: string;
  secret: string;
  status: "enabled";
  enabled_at: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface Tables {
  businesses: BusinessRow;
  users: UserRow;
  user_phones: UserPhoneRow;
  memberships: MembershipRow;
  merchants: MerchantRow;
  points_of_sale: PointOfSaleRow;
  terminals: TerminalRow;
  terminal_assignments: TerminalAssignmentRow;
  settlement_accounts: SettlementAccountRow;
  ledger_accounts: LedgerAccountRow;
  approval_requests: ApprovalRequestRow;
  transactions: TransactionRow;
  settlements: SettlementRow;
  settlement_items: SettlementItemRow;
  ledger_entries: LedgerEntryRow;
  daily_rollups: DailyRollupRow;
  disputes: DisputeRow;
  refunds: RefundRow;
  webhook_events: WebhookEventRow;
  webhook_endpoints: WebhookEndpointRow;
}

export type TableName = keyof Tables;

/** Every table the seed writes, parents before children (the order to insert, reversed to delete). */
export const COLUMNS: { readonly [T in TableName]: readonly (keyof Tables[T] & string)[] } = {
  businesses: ["id", "name", "identifier", "contact_number", "contact_email", "town", "region", "sector", "status", "created_at"],
  users: ["id", "email", "name", "gender", "status", "created_at"],
  user_phones: ["user_id", "msisdn", "created_at"],
  memberships: ["business_id", "user_id", "role", "status", "created_at", "version", "updated_at", "contact_phone"],
  merchants: ["id", "business_id", ...MERCHANT_COLUMNS, "status", "created_at", "updated_at", "version"],
  points_of_sale: ["id", "business_id", "merchant_id", "name", "town", "region", "address", "contact_phone", "status", "created_at", "updated_at", "version"],
  terminals: [
    "id",
    "business_id",
    "serial",
    "model",
    "software_version",
    "status",
    "merchant_id",
    "point_of_sale_id",
    "last_seen_at",
    "created_at",
    "updated_at",
    "version",
  ],
  terminal_assignments: ["id", "business_id", "terminal_id", "point_of_sale_id", "assigned_by", "assigned_at", "unassigned_at"],
  settlement_accounts: [
    "id",
    "business_id",
    "merchant_id",
    "kind",
    "provider",
    "account_number",
    "account_name",
    "is_primary",
    "status",
    "created_at",
    "updated_at",
    "version",
  ],
  ledger_accounts: ["id", "business_id", "merchant_id", "kind"],
  approval_requests: [
    "id",
    "business_id",
    "kind",
    "action",
    "target_id",
    "target_version",
    "before_json",
    "after_json",
    "maker_id",
    "made_at",
    "status",
    "checker_id",
    "decided_at",
    "reason",
  ],
  transactions: [
    "id",
    "business_id",
    "reference",
    "merchant_id",
    "point_of_sale_id",
    "terminal_id",
    "channel",
    "network",
    "amount",
    "fee",
    "status",
    "card_bin",
    "card_last4",
    "customer_msisdn",
    "created_at",
    "cleared_at",
  ],
  settlements: [
    "id",
    "business_id",
    "merchant_id",
    "settlement_account_id",
    "period_start",
    "period_end",
    "gross",
    "fees",
    "net",
    "status",
    "reference",
    "attempts",
    "created_at",
    "paid_at",
  ],
  settlement_items: ["settlement_id", "transaction_id"],
  ledger_entries: ["id", "business_id", "posting_id", "account_id", "amount", "transaction_id", "transfer_id", "settlement_id", "memo", "posted_at"],
  daily_rollups: ["business_id", "day", "merchant_id", "point_of_sale_id", "terminal_id", "channel", "network", "status", "count", "amount", "fee"],
  disputes: ["id", "business_id", "merchant_id", "transaction_id", "reason_code", "amount", "evidence_due_at", "status", "opened_at"],
  refunds: ["id", "business_id", "transaction_id", "merchant_id", "amount", "reason", "status", "idempotency_key", "requested_by", "created_at"],
  webhook_events: ["id", "business_id", "type", "payload", "happened_at", "created_at"],
  webhook_endpoints: ["id", "business_id", "url", "description", "event_types", "secret", "status", "enabled_at", "created_by", "created_at", "updated_at"],
};

export const TABLE_ORDER = Object.keys(COLUMNS) as TableName[];

/** A batch of rows of one table, in the order the generator made them. */
export type Chunk = { [T in TableName]: { table: T; rows: Tables[T][] } }[TableName];

/** One row as the values of its columns, in COLUMNS order. */
export function rowValues<T extends TableName>(table: T, row: Tables[T]): Value[] {
  return COLUMNS[table].map((column) => row[column] as Value);
}
