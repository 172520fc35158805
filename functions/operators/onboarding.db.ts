// Onboarding a business (decision 039): what the platform reads before asking (how full each shard is, whether an
// identifier is taken) and the statements that make the business once a second Platform Administrator approves. The
// business is written on its shard first and in the core database after, the directory entry last in the core's
// batch: until that entry exists nobody can reach the business, so a run stopped half way leaves nothing anyone can
// use, and the next run (every statement is a no-op when its row stands) finishes it.
import { ifChangedAuditStatement } from "../audit/audit.db";
import { openBusinessAccountsStatements } from "../ledger/ledger.db";
import type { CoreAccount } from "../tenancy/directory.db";
import type { Db, RequestMeta } from "../tenancy/tenant";

/** How many businesses the directory places on each database (a business being moved counts where it is now). */
export async function businessesPerShard(core: Db): Promise<Map<string, number>> {
  const { results } = await core.prepare("SELECT shard, count(*) AS n FROM business_shards GROUP BY shard").all<{ shard: string; n: number }>();
  return new Map(results.map((row) => [row.shard, row.n]));
}

/**
 * Who has the identifier already: a business on the platform (the core holds every business's row), or an onboarding
 * request still waiting for a decision; null when it is free.
 */
export async function identifierHolder(core: Db, identifier: string): Promise<"business" | "request" | null> {
  const row = await core
    .prepare(
      `SELECT 'business' AS holder FROM businesses WHERE identifier = ?1
       UNION ALL SELECT 'request' FROM platform_requests WHERE kind = 'onboard_business' AND status = 'pending' AND after_json ->> '$.identifier' = ?1
       LIMIT 1`,
    )
    .bind(identifier)
    .first<{ holder: "business" | "request" }>();
  return row?.holder ?? null;
}

/** The business that has the identifier, if any (applying refuses one that is not the request's own). */
export async function businessWithIdentifier(core: Db, identifier: string): Promise<string | null> {
  return (await core.prepare("SELECT id FROM businesses WHERE identifier = ?").bind(identifier).first<{ id: string }>())?.id ?? null;
}

/** The business as its row has it, in the core and on its shard alike. */
export interface NewBusiness {
  id: string;
  name: string;
  tradingName: string | null;
  identifier: string;
  contactNumber: string;
  contactEmail: string;
  town: string;
  region: string;
  sector: string;
  logoUrl: string | null;
  createdAt: string;
}

/**
 * One of its first two people (its Super Administrator and an Administrator): an account the core already has (their
 * own name and numbers, decision 029), or a new person with the typed name and the typed number as their first way to
 * sign in. `contactPhone` is what was typed: the business's contact number for the membership either way.
 */
export interface FoundingMember {
  role: "Super Administrator" | "Administrator";
  account: Pick<CoreAccount, "id" | "email" | "name" | "gender" | "status" | "createdAt" | "phones">;
  isNew: boolean;
  contactPhone: string;
}

function businessStatement(db: Db, business: NewBusiness): D1PreparedStatement {
  // ON CONFLICT (id) only: an identifier another business holds still fails the batch, never silently.
  return db
    .prepare(
      `INSERT INTO businesses (id, name, trading_name, identifier, contact_number, contact_email, town, region, sector, logo_url, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?) ON CONFLICT (id) DO NOTHING`,
    )
    .bind(
      business.id,
      business.name,
      business.tradingName,
      business.identifier,
      business.contactNumber,
      business.contactEmail,
      business.town,
      business.region,
      business.sector,
      business.logoUrl,
      business.createdAt,
    );
}

function personStatements(db: Db, member: FoundingMember): D1PreparedStatement[] {
  const { account } = member;
  return [
    // ON CONFLICT (id): the person's row stands (a copy made for another business of this database, or the first run's);
    // an email that names another id still fails the batch, as copyMemberToCore's plain INSERT does.
    db
      .prepare("INSERT INTO users (id, email, name, gender, status, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")
      .bind(account.id, account.email, account.name, account.gender, account.status, account.createdAt),
    ...account.phones.map((phone) =>
      db
        .prepare("INSERT INTO user_phones (user_id, msisdn, created_at, linked_by) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, msisdn) DO NOTHING")
        .bind(account.id, phone.msisdn, phone.createdAt, phone.linkedBy),
    ),
  ];
}

/**
 * The business's own database: its row (and, only when that row is new, business.onboarded on its own audit chain),
 * the copies of its first people and their numbers, their memberships, and the business's ledger accounts.
 */
export function shardOnboardingStatements(
  shard: Db,
  business: NewBusiness,
  members: readonly FoundingMember[],
  audit: { meta: RequestMeta; after: Record<string, unknown> },
  at: string,
): D1PreparedStatement[] {
  return [
    businessStatement(shard, business),
    ifChangedAuditStatement(
      { userId: null, businessId: business.id },
      shard,
      audit.meta,
      { action: "business.onboarded", entity: "business", entityId: business.id, after: audit.after },
      at,
    ),
    ...members.flatMap((member) => [
      ...personStatements(shard, member),
      shard
        .prepare(
          `INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version, contact_phone)
           VALUES (?, ?, ?, 'active', ?, ?, 1, ?) ON CONFLICT (business_id, user_id) DO NOTHING`,
        )
        .bind(business.id, member.account.id, member.role, at, at, member.contactPhone),
    ]),
    ...openBusinessAccountsStatements({ businessId: business.id, db: shard }),
  ];
}

/**
 * The core database: the business's row, each new person and their first number (an existing account is not
 * touched), the memberships' copies that sign-in reads, and last the directory entry that makes the business reachable.
 */
export function coreOnboardingStatements(
  core: Db,
  business: NewBusiness,
  members: readonly FoundingMember[],
  shard: string,
  at: string,
): D1PreparedStatement[] {
  return [
    businessStatement(core, business),
    ...members.flatMap((member) => [
      ...(member.isNew ? personStatements(core, member) : []),
      core
        .prepare(
          `INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version)
           VALUES (?, ?, ?, 'active', ?, ?, 1) ON CONFLICT (business_id, user_id) DO NOTHING`,
        )
        .bind(business.id, member.account.id, member.role, at, at),
    ]),
    core
      .prepare(
        `INSERT INTO business_shards (business_id, shard, moving_to, updated_at, lifecycle) VALUES (?, ?, NULL, ?, 'active')
         ON CONFLICT (business_id) DO NOTHING`,
      )
      .bind(business.id, shard, at),
  ];
}
