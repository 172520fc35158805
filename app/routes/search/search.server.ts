// The top bar's one search box: the text a person has to hand (a payment's reference or its tail, a merchant's name
// or code, a terminal's serial, a person's name or email, a phone's last digits, a dispute's or settlement's id) read
// every way it can be, each way by the reader and the data function its own list uses, a few rows each, side by side.
// Every read is the tenant's (business bound first); a kind the person's role may not view is not read at all.
import { listMerchants } from "#server/merchants/merchants.db";
import { listTerminals } from "#server/merchants/terminals.db";
import { listTransactions } from "#server/payments/transactions.db";
import { findEmployees } from "#server/team/employees.db";
import { findDisputes } from "#server/disputes/disputes.db";
import { findSettlements } from "#server/settlement/settlements.db";
import { namesOf } from "#server/lists/names.db";
import { can, type Permission } from "#server/permissions";
import type { Tenant } from "#server/tenancy/tenant";
import { formatAmount, replaceBrandWords, tableDate } from "#app/lib/format";
import { isNumberHeavy } from "#app/lib/forms/validation";
import { readMerchantSearch } from "#app/lib/merchant-search";
import { paths } from "#app/lib/paths";
import { statusLabel } from "#app/lib/statuses";
import { readTransactionSearch } from "#app/routes/transactions/transaction-search";
import { payerOf } from "#app/lib/transactions-view";
import type { SearchAnswer, SearchGroup, SearchItem, SearchKind } from "#app/components/search/search-answer";

/** Rows of each kind: enough to pick from, few enough that six reads stay small. */
export const SEARCH_LIMIT = 5;

/** Shorter text finds too much to be of use (one letter is in most names). */
export const SEARCH_MIN_CHARACTERS = 2;

/** The shortest id or reference part worth looking up by its beginning ("stl_", "dsp_", "STL-K"). */
const ID_MIN_CHARACTERS = 4;

/** A Ghana number's national part (without 233 or 0) is 9 digits: a phone's last digits are at most that many. */
const NATIONAL_DIGITS = 9;

const LABELS: Record<SearchKind, string> = {
  payment: "Payments",
  merchant: "Merchants",
  terminal: "POS terminals",
  person: "People",
  dispute: "Disputes",
  settlement: "Settlements",
};

const PERMISSION: Record<SearchKind, Permission> = {
  payment: "view:transaction",
  merchant: "view:merchant",
  terminal: "view:terminal",
  person: "view:employee",
  dispute: "view:dispute",
  settlement: "view:settlement",
};

/** Text as the screens show it: SPEC 9's brand word replaced, once here for every kind. */
const shown = (item: SearchItem): SearchItem => ({ ...item, title: replaceBrandWords(item.title), detail: replaceBrandWords(item.detail) });
const joined = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(" · ");

async function payments(tenant: Tenant, text: string): Promise<SearchItem[]> {
  // The transactions box's readings that name one payment; its amount and merchant's name are the other groups' work.
  const { referenceTail, customerMsisdn, cardLast4, phoneLast4 } = readTransactionSearch(text);
  const filter = { referenceTail, customerMsisdn, cardLast4, phoneLast4 };
  if (!Object.values(filter).some(Boolean)) return [];
  const { rows } = await listTransactions(tenant, { ...filter, limit: SEARCH_LIMIT });
  const names = await namesOf(
    tenant,
    "merchant",
    rows.map((t) => t.merchantId),
  );
  return rows.map((t) => ({
    id: String(t.id),
    title: t.reference,
    detail: joined(`GHS ${formatAmount(t.amount)}`, names.get(t.merchantId), payerOf(t), tableDate(t.createdAt)),
    href: paths.payment(t.id),
  }));
}

async function merchants(tenant: Tenant, text: string): Promise<SearchItem[]> {
  const { rows } = await listMerchants(tenant, { ...readMerchantSearch(text), limit: SEARCH_LIMIT });
  return rows.map((m) => ({
    id: m.id,
    title: m.name,
    detail: joined(m.tradingName !== m.name ? m.tradingName : null, m.code, m.town),
    href: paths.merchant(m.id),
  }));
}

async function terminals(tenant: Tenant, compact: string): Promise<SearchItem[]> {
  const { rows } = await listTerminals(tenant, { serial: compact, limit: SEARCH_LIMIT });
  return rows.map((t) => ({ id: t.id, title: t.serial, detail: joined(t.model, statusLabel("terminal", t.status)), href: paths.device(t.id) }));
}

async function people(tenant: Tenant, text: string): Promise<SearchItem[]> {
  const digits = text.replace(/\D/g, "");
  // A number is a phone's last digits (a local 0… number is its national part); a name or an email is neither.
  const query = isNumberHeavy(text) ? (digits.length >= 4 ? { phoneTail: digits.replace(/^(233|0)/, "").slice(-NATIONAL_DIGITS) } : null) : { text };
  if (!query) return [];
  const rows = await findEmployees(tenant, { ...query, limit: SEARCH_LIMIT });
  return rows.map((e) => ({
    id: e.userId,
    title: e.name,
    detail: joined(e.email, e.role, e.status === "active" ? null : statusLabel("employee", e.status)),
    href: paths.settings("team"),
  }));
}

async function disputes(tenant: Tenant, compact: string): Promise<SearchItem[]> {
  const rows = await findDisputes(tenant, compact, SEARCH_LIMIT);
  return rows.map((d) => ({
    id: d.id,
    title: d.id,
    detail: joined(d.merchantName, `GHS ${formatAmount(d.amount)}`, d.paymentReference, statusLabel("dispute", d.status)),
    href: paths.dispute(d.id),
  }));
}

async function settlements(tenant: Tenant, compact: string): Promise<SearchItem[]> {
  const rows = await findSettlements(tenant, compact, SEARCH_LIMIT);
  const names = await namesOf(
    tenant,
    "merchant",
    rows.map((s) => s.merchantId),
  );
  return rows.map((s) => ({
    id: s.id,
    title: s.reference,
    detail: joined(names.get(s.merchantId), `GHS ${formatAmount(s.net)}`, statusLabel("settlement", s.status)),
    href: paths.settlement(s.id),
  }));
}

/** What the box finds for `typed`, grouped by kind in the order the groups show; only kinds with rows are given. */
export async function searchEverything(tenant: Tenant, typed: string): Promise<SearchAnswer> {
  const text = typed.trim();
  if ([...text].length < SEARCH_MIN_CHARACTERS) return { q: text, groups: [] };
  const compact = text.replace(/\s+/g, "");
  // An id, reference or serial has no spaces and some length; a name may have both.
  const idLike = text === compact && [...compact].length >= ID_MIN_CHARACTERS;
  const reads: [SearchKind, (() => Promise<SearchItem[]>) | null][] = [
    ["payment", () => payments(tenant, text)],
    ["merchant", () => merchants(tenant, text)],
    ["terminal", text === compact ? () => terminals(tenant, compact) : null],
    ["person", () => people(tenant, text)],
    ["dispute", idLike ? () => disputes(tenant, compact) : null],
    ["settlement", idLike ? () => settlements(tenant, compact) : null],
  ];
  const found = await Promise.all(
    reads.map(async ([kind, read]): Promise<SearchGroup | null> => {
      if (!read || !can(tenant.role, PERMISSION[kind])) return null;
      const items = await read();
      return items.length > 0 ? { kind, label: LABELS[kind], items: items.map(shown) } : null;
    }),
  );
  return { q: text, groups: found.filter((group): group is SearchGroup => group !== null) };
}
