// The demo data, as a stream of row chunks in insert order (parents first).
// Deterministic: the same size, anchor and now give byte-identical rows. Every
// instant is relative to the anchor (the start of a UTC day, "today"), so a
// later anchor shifts the same data forward in time. `now` (default: the
// anchor) is when the seed is made: the payments go on into the anchor's day up
// to it, so a fresh database has a "today so far", and nothing lies after it.
import { createHash } from "node:crypto";
import type { LedgerAccountKind } from "#server/ledger/ledger";
import { BUSINESS_ACCOUNT_KINDS, ledgerAccountId } from "#server/ledger/ledger";
import { activity } from "./activity";
import { examplePlan } from "./api-examples";
import { pendingApprovals } from "./approvals";
import { BUSINESSES, USERS, type SeedSize } from "./data";
import { DAY_MS, HOUR_MS, SIZE_PROFILES } from "./profile";
import { buildBusiness, iso, type SeedContext } from "./structure";
import { TABLE_ORDER, type Chunk, type LedgerAccountRow, type TableName, type Tables } from "./tables";

export { DAY_MS, SIZE_PROFILES };

/** The start of the UTC day of an instant: the anchor the CLI uses is startOfUtcDay(Date.now()). */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

const MERCHANT_KINDS: readonly LedgerAccountKind[] = ["merchant_pending", "merchant_available"];

export function* generateSeed(size: SeedSize, anchor: number, now: number = anchor): Generator<Chunk> {
  if (!Number.isSafeInteger(anchor) || anchor % DAY_MS !== 0) throw new Error(`the anchor must be the start of a UTC day in epoch ms, got ${anchor}`);
  if (!Number.isSafeInteger(now) || now < anchor || now >= anchor + DAY_MS) throw new Error(`now must be within the anchor's UTC day, got ${now}`);
  const profile = SIZE_PROFILES[size];
  const ctx: SeedContext = { anchor, now, days: profile.days, windowStart: anchor - profile.days * DAY_MS, serials: new Set(), nextAssignmentId: 1 };
  const businesses = BUSINESSES.filter((b) => b.sizes.includes(size));
  const users = USERS.filter((u) => u.sizes.includes(size));

  // The sign-in identities (DESIGN section 8) and their businesses, years before the window.
  const businessCreated = (i: number) => anchor - (1_400 + 37 * i) * DAY_MS + 9 * HOUR_MS;
  yield {
    table: "businesses",
    rows: businesses.map((b, i) => ({
      id: b.id,
      name: b.name,
      identifier: b.identifier,
      contact_number: b.contactNumber,
      contact_email: b.contactEmail,
      town: b.town,
      region: b.region,
      sector: b.sector,
      status: "active",
      created_at: iso(businessCreated(i)),
    })),
  };
  const userCreated = (i: number) => anchor - (1_300 - 11 * i) * DAY_MS + 10 * HOUR_MS;
  yield {
    table: "users",
    rows: users.map((u, i) => ({ id: u.id, email: u.email, name: u.name, gender: u.gender, status: "active", created_at: iso(userCreated(i)) })),
  };
  yield { table: "user_phones", rows: users.flatMap((u, i) => u.phones.map((msisdn) => ({ user_id: u.id, msisdn, created_at: iso(userCreated(i)) }))) };
  yield {
    table: "memberships",
    rows: users.flatMap((u, i) =>
      Object.entries(u.roles).map(([businessId, role]) => ({
        business_id: businessId,
        user_id: u.id,
        role,
        status: "active" as const,
        created_at: iso(userCreated(i) + HOUR_MS),
        version: 1,
        updated_at: null,
        // The number each business typed for its people: their first phone (decision 029's contact number).
        contact_phone: u.phones[0] ?? null,
      })),
    ),
  };

  // Merchants, points of sale, terminals and settlement accounts per business.
  const models = businesses.map((b) => {
    const operators = users
      .filter((u) => ["Operations", "Administrator", "Super Administrator"].includes(u.roles[b.id] ?? ""))
      .sort((x, y) => Number(y.roles[b.id] === "Operations") - Number(x.roles[b.id] === "Operations"))
      .map((u) => u.id);
    return buildBusiness(ctx, b, profile, operators);
  });
  const merchants = models.flatMap((m) => m.merchants);
  yield { table: "merchants", rows: merchants.map((m) => m.row) };
  yield { table: "points_of_sale", rows: merchants.flatMap((m) => m.pointsOfSale.map((p) => p.row)) };
  yield { table: "terminals", rows: models.flatMap((m) => m.terminals.map((t) => t.row)) };
  yield { table: "terminal_assignments", rows: models.flatMap((m) => m.assignments).sort((x, y) => x.id - y.id) };
  yield { table: "settlement_accounts", rows: merchants.flatMap((m) => m.accounts) };

  const accounts: LedgerAccountRow[] = [];
  for (const model of models) {
    const businessId = model.business.id;
    for (const kind of BUSINESS_ACCOUNT_KINDS) accounts.push({ id: ledgerAccountId(businessId, { kind }), business_id: businessId, merchant_id: null, kind });
    for (const merchant of model.merchants) {
      for (const kind of MERCHANT_KINDS) {
        accounts.push({ id: ledgerAccountId(businessId, { kind, merchantId: merchant.row.id }), business_id: businessId, merchant_id: merchant.row.id, kind });
      }
    }
  }
  yield { table: "ledger_accounts", rows: accounts };
  yield { table: "approval_requests", rows: pendingApprovals(ctx, models, new Set(users.map((u) => u.id))) };

  yield* activity(ctx, profile, models, profile.apiExamples ? examplePlan(ctx, models) : null);
}

/** Every row of a size in memory, by table (tiny and demo; large is streamed). */
export function collectSeed(size: SeedSize, anchor: number, now: number = anchor): { [T in TableName]: Tables[T][] } {
  const out = Object.fromEntries(TABLE_ORDER.map((t) => [t, []])) as unknown as { [T in TableName]: Tables[T][] };
  for (const chunk of generateSeed(size, anchor, now)) {
    const rows = out[chunk.table] as unknown[];
    for (const row of chunk.rows) rows.push(row);
  }
  return out;
}

/** A SHA-256 over every chunk in order: equal digests, byte-identical data. */
export function seedDigest(size: SeedSize, anchor: number, now: number = anchor): string {
  const hash = createHash("sha256");
  for (const chunk of generateSeed(size, anchor, now)) {
    hash.update(chunk.table);
    hash.update(JSON.stringify(chunk.rows));
  }
  return hash.digest("hex");
}
