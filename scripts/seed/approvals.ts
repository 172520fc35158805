// Pending maker-checker requests in Kumasi Fresh Foods, of every kind: the
// queue the checkers (ama.mensah, kofi.boateng) find when they sign in.
//
// The contract the approvals engine relies on: target_id is the id of the row
// changed (for a create, the id the new row will get; for an employee, the user
// id); after_json holds the changed columns by column name (for a create, every
// column the row needs except id, business_id, status, timestamps and version;
// for an employee create {"email","name","gender","phone","role"}); before_json
// holds the same keys with their current values (null for a create);
// target_version is the target's current version (null for a create).
import { MERCHANT_COLUMNS } from "#server/merchants/merchant-columns";
import { KUMASI_FRESH_FOODS } from "./data";
import { Rng } from "./prng";
import { HOUR_MS } from "./profile";
import { iso, makeMerchant, makePointOfSale, makeSettlementAccount, pad, type BusinessModel, type MerchantModel, type SeedContext } from "./structure";
import type { ApprovalRequestRow, PointOfSaleRow, SettlementAccountRow } from "./tables";

export const MAKER = "usr_esi_owusu";
export const EMPLOYEE_MAKER = "usr_ama_mensah";

type Json = Record<string, string | number | null>;

function pick<T extends object, K extends keyof T & string>(row: T, keys: readonly K[]): Json {
  const out: Json = {};
  for (const key of keys) out[key] = row[key] as string | number | null;
  return out;
}

const POS_CREATE_COLUMNS = ["merchant_id", "name", "town", "region", "address", "contact_phone"] as const satisfies readonly (keyof PointOfSaleRow)[];
const ACCOUNT_CREATE_COLUMNS = [
  "merchant_id",
  "kind",
  "provider",
  "account_number",
  "account_name",
  "is_primary",
] as const satisfies readonly (keyof SettlementAccountRow)[];

export function pendingApprovals(ctx: SeedContext, models: readonly BusinessModel[], userIds: ReadonlySet<string>): ApprovalRequestRow[] {
  const model = models.find((m) => m.business.id === KUMASI_FRESH_FOODS);
  if (!model || model.merchants.length < 3) throw new Error("the approvals requests need Kumasi Fresh Foods with three merchants");
  const rng = Rng.stream("approvals");
  const { short } = model.profile;
  const [m0, m1, m2] = model.merchants as [MerchantModel, MerchantModel, MerchantModel];
  const requests: ApprovalRequestRow[] = [];
  let hoursAgo = 52;
  const request = (
    fields: Pick<ApprovalRequestRow, "kind" | "action" | "target_id" | "target_version" | "maker_id"> & { before: Json | null; after: Json },
  ) => {
    hoursAgo -= rng.int(2, 6);
    requests.push({
      id: `apr_${short}_${pad(requests.length + 1, 4)}`,
      business_id: model.business.id,
      kind: fields.kind,
      action: fields.action,
      target_id: fields.target_id,
      target_version: fields.target_version,
      before_json: fields.before === null ? null : JSON.stringify(fields.before),
      after_json: JSON.stringify(fields.after),
      maker_id: fields.maker_id,
      made_at: iso(ctx.now - hoursAgo * HOUR_MS - rng.int(0, 3_599) * 1000),
      status: "pending",
      checker_id: null,
      decided_at: null,
      reason: null,
    });
  };

  // A new merchant, drawn like the others, with the next id and code.
  const next = model.merchants.length;
  const { rng: _unused, ...fresh } = makeMerchant(ctx, model, next);
  request({
    kind: "merchant",
    action: "create",
    target_id: fresh.row.id,
    target_version: null,
    maker_id: MAKER,
    before: null,
    after: pick(fresh.row, MERCHANT_COLUMNS),
  });

  // A new contact person for the second merchant.
  const contact = makeMerchant(ctx, { ...model, tins: new Set(), tradingNames: new Set() }, next + 1).row;
  const contactKeys = ["contact_name", "contact_phone"] as const;
  request({
    kind: "merchant",
    action: "update",
    target_id: m1.row.id,
    target_version: m1.row.version,
    maker_id: MAKER,
    before: pick(m1.row, contactKeys),
    after: pick(contact, contactKeys),
  });

  // A new branch for the first merchant.
  const posCount = model.merchants.reduce((n, m) => n + m.pointsOfSale.length, 0);
  const names = new Set(m0.pointsOfSale.map((p) => p.row.name));
  const branch = makePointOfSale(rng, ctx, m0, 1, `pos_${short}_${pad(posCount + 1, 5)}`, names, true);
  request({
    kind: "point_of_sale",
    action: "create",
    target_id: branch.row.id,
    target_version: null,
    maker_id: MAKER,
    before: null,
    after: pick(branch.row, POS_CREATE_COLUMNS),
  });

  // Closing the first merchant's second branch.
  const closing = m0.pointsOfSale.find((p, i) => i > 0 && p.row.status === "active");
  if (!closing) throw new Error("the first Kumasi merchant needs a second active point of sale");
  request({
    kind: "point_of_sale",
    action: "deactivate",
    target_id: closing.row.id,
    target_version: closing.row.version,
    maker_id: MAKER,
    before: { status: "active" },
    after: { status: "inactive" },
  });

  // A mobile-money payout account for the third merchant.
  const accountCount = model.merchants.reduce((n, m) => n + m.accounts.length, 0);
  const created = ctx.now - HOUR_MS;
  const taken = new Set(m2.accounts.map((a) => `${a.kind}|${a.provider}|${a.account_number}`));
  let wallet = makeSettlementAccount(rng, m2, `sac_${short}_${pad(accountCount + 1, 5)}`, "mobile_money", {
    primary: false,
    active: true,
    created,
    updated: created,
  });
  while (taken.has(`${wallet.kind}|${wallet.provider}|${wallet.account_number}`)) {
    wallet = makeSettlementAccount(rng, m2, wallet.id, "mobile_money", { primary: false, active: true, created, updated: created });
  }
  request({
    kind: "settlement_account",
    action: "create",
    target_id: wallet.id,
    target_version: null,
    maker_id: MAKER,
    before: null,
    after: pick(wallet, ACCOUNT_CREATE_COLUMNS),
  });

  // The account name of the second merchant's primary account, as the bank prints it.
  const primary = m1.primaryAccount;
  request({
    kind: "settlement_account",
    action: "update",
    target_id: primary.id,
    target_version: primary.version,
    maker_id: MAKER,
    before: { account_name: primary.account_name },
    after: { account_name: primary.account_name.toUpperCase() },
  });

  // Closing the first merchant's second (not primary) payout account.
  const spare = m0.accounts.find((a) => a.is_primary === 0 && a.status === "active");
  if (!spare) throw new Error("the first Kumasi merchant needs a second active settlement account");
  request({
    kind: "settlement_account",
    action: "deactivate",
    target_id: spare.id,
    target_version: spare.version,
    maker_id: MAKER,
    before: { status: "active" },
    after: { status: "inactive" },
  });

  // Employees, requested by the Super Administrator: inviting a new person, and (when that person is seeded) a role change.
  request({
    kind: "employee",
    action: "create",
    target_id: "usr_adwoa_sarpong",
    target_version: null,
    maker_id: EMPLOYEE_MAKER,
    before: null,
    after: { email: "adwoa.sarpong@example.com", name: "Adwoa Sarpong", gender: "female", phone: "233245550987", role: "Finance" },
  });
  if (userIds.has("usr_kwabena_osei")) {
    request({
      kind: "employee",
      action: "update",
      target_id: "usr_kwabena_osei",
      target_version: 1,
      maker_id: EMPLOYEE_MAKER,
      before: { role: "Viewer" },
      after: { role: "Operations" },
    });
  }
  return requests;
}
