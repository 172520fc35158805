// Onboarding a business (issue 27, decision 039): one Platform Administrator asks at /platform/businesses/new, another
// decides. Nothing of the business exists before the approval: no directory entry, no row, no person; only the request
// and its logo, stored as it is asked (the checker sees what the business will show). Approving makes the business on
// its shard and in the core database (onboarding.db.ts), with its first Super Administrator, who then signs in as
// anyone does and finds an empty business that works: its row, their membership, its ledger accounts.
import { nameContradicts, sniffEvidenceType, type EvidenceType } from "../disputes/evidence";
import { accountIdByEmail, accountsForInvitation, businessPlace } from "../tenancy/directory.db";
import { databaseNamed, shardNames } from "../tenancy/shards";
import { isBusinessMoving, MOVING_MESSAGE, RuleError } from "../tenancy/tenant";
import type { PlatformRequest } from "./guards";
import {
  businessesPerShard,
  businessWithIdentifier,
  coreOnboardingStatements,
  identifierHolder,
  shardOnboardingStatements,
  type FirstAdministrator,
  type NewBusiness,
} from "./onboarding.db";
import type { PlatformRequestRow } from "./requests.db";
import { askPlatform, type PlatformKindSpec, type PlatformRun } from "./requests";

/** What the form gives, read by app/lib/onboarding-form.ts (names trimmed, numbers as 233XXXXXXXXX, emails lower case). */
export interface OnboardingFields {
  name: string;
  tradingName: string | null;
  identifier: string;
  sector: string;
  town: string;
  region: string;
  contactNumber: string;
  contactEmail: string;
  /** A shard binding, or null for the one with the fewest businesses. */
  shard: string | null;
  admin: { name: string; email: string; phone: string; phoneMasked: string };
}

/** What the request keeps: the fields, where the business goes, who its Super Administrator is, and its logo. */
export interface OnboardingAsk extends Omit<OnboardingFields, "shard"> {
  shard: string;
  /** Whether the maker chose the database (else: the fewest businesses when asked). */
  shardChosen: boolean;
  /** The account the email had when asked, or the id a new person will get. */
  adminUserId: string;
  adminExisting: boolean;
  logo: { contentType: LogoType; size: number } | null;
}

// ---------------------------------------------------------------- the logo

// Logos go to the EVIDENCE bucket under logos/, not to a bucket of their own: a handful of small files that need the
// same things evidence has (R2, a type checked from the bytes, served only through a guarded route), and one bucket
// less to create and bind in every deployment and test portal. The prefix keeps them apart from disputes/<business>/.
export const LOGO_PREFIX = "logos/";
export const MAX_LOGO_BYTES = 512 * 1024;
/** Pictures only: no PDF, and no SVG, which is a document that can carry script (it has no magic number either). */
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const satisfies readonly EvidenceType[];
export type LogoType = (typeof LOGO_TYPES)[number];

/** Stored under the id the business will have (one onboarding request per new id): the approval points its row at it. */
export const logoKey = (businessId: string) => `${LOGO_PREFIX}${businessId}`;
/** The route that serves it (app/routes/platform/logo.route.ts). */
export const logoUrl = (businessId: string) => `/logos/${encodeURIComponent(businessId)}`;

const LOGO_NOT_ACCEPTED = "The logo is not a PNG, JPEG or WebP image: its content was checked, not its name. Save it as one of those and choose it again.";

/** The logo's type by its bytes, or why it is refused; nothing is stored here. */
export async function checkLogo(file: File): Promise<{ contentType: LogoType } | { error: string }> {
  if (file.size > MAX_LOGO_BYTES)
    return { error: "The logo is larger than 512 KB. Save it smaller (a logo needs no more than 512 × 512 pixels) and choose it again." };
  const sniffed = sniffEvidenceType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  const contentType = (LOGO_TYPES as readonly string[]).includes(sniffed ?? "") ? (sniffed as LogoType) : null;
  if (!contentType) return { error: LOGO_NOT_ACCEPTED };
  const contradiction = nameContradicts(file.name, contentType);
  return contradiction ? { error: contradiction } : { contentType };
}

// ---------------------------------------------------------------- asking

/** The database a new business goes to: the chosen one, or the one with the fewest businesses (the first by name on a tie). */
export async function placementFor(env: Env, core: D1Database, chosen: string | null): Promise<{ shard: string; chosen: boolean } | { error: string }> {
  const names = shardNames(env);
  if (chosen !== null) return names.includes(chosen) ? { shard: chosen, chosen: true } : { error: "Choose one of the databases listed." };
  const counts = await businessesPerShard(core);
  const fewest = names.reduce<string | null>((best, name) => (best === null || (counts.get(name) ?? 0) < (counts.get(best) ?? 0) ? name : best), null);
  return fewest ? { shard: fewest, chosen: false } : { error: "This deployment has no shard database to place a business on." };
}

/** Each database and how many businesses it holds, for the form's choice. */
export async function shardChoices(env: Env, core: D1Database): Promise<{ shard: string; businesses: number }[]> {
  const counts = await businessesPerShard(core);
  return shardNames(env).map((shard) => ({ shard, businesses: counts.get(shard) ?? 0 }));
}

export const IDENTIFIER_TAKEN = "A business on the platform already has this identifier.";
export const IDENTIFIER_WAITING = "A request to onboard a business with this identifier already waits for a decision.";

/** Why the identifier cannot be used, by its field; null when it is free. */
export async function identifierRefusal(core: D1Database, identifier: string): Promise<string | null> {
  const holder = await identifierHolder(core, identifier);
  return holder === "business" ? IDENTIFIER_TAKEN : holder === "request" ? IDENTIFIER_WAITING : null;
}

/**
 * Asks for the onboarding, everything already checked: the logo goes to R2 first, then the request names it; if the
 * request cannot be written the logo is deleted again (an orphan otherwise, under an id no business will have).
 */
export async function askOnboarding(
  maker: PlatformRequest,
  bucket: R2Bucket,
  fields: OnboardingFields,
  placement: { shard: string; chosen: boolean },
  logo: { file: File; contentType: LogoType } | null,
): Promise<{ id: string }> {
  const businessId = `bus_${crypto.randomUUID()}`;
  // An email that already has an account (any business, or the platform's staff) is that person: no second account.
  const existing = await accountIdByEmail(maker.deps.db, fields.admin.email);
  const ask: OnboardingAsk = {
    ...fields,
    shard: placement.shard,
    shardChosen: placement.chosen,
    adminUserId: existing ?? `usr_${crypto.randomUUID()}`,
    adminExisting: Boolean(existing),
    logo: logo ? { contentType: logo.contentType, size: logo.file.size } : null,
  };
  if (logo) {
    await bucket.put(logoKey(businessId), await logo.file.arrayBuffer(), {
      httpMetadata: { contentType: logo.contentType },
      customMetadata: { businessId, uploadedBy: maker.staff.userId },
    });
  }
  try {
    const audited = { ...ask, admin: { ...ask.admin, phone: ask.admin.phoneMasked } };
    const { id } = await askPlatform(maker, "onboard_business", businessId, { ...ask }, audited);
    return { id };
  } catch (error) {
    if (logo) await bucket.delete(logoKey(businessId)).catch(() => {});
    throw error;
  }
}

// ---------------------------------------------------------------- the kind

function askOf(request: PlatformRequestRow): OnboardingAsk {
  return request.after as unknown as OnboardingAsk;
}

const displayName = (ask: OnboardingAsk) => ask.tradingName ?? ask.name;

const LOGO_WORDS: Record<LogoType, string> = { "image/png": "PNG image", "image/jpeg": "JPEG image", "image/webp": "WebP image" };

async function apply(run: PlatformRun, request: PlatformRequestRow): Promise<Record<string, unknown>> {
  const ask = askOf(request);
  const { deps, staff } = run;
  const env = run.context.cloudflare.env;
  const businessId = request.subjectId;
  // The directory entry is written last: once it stands, everything before it does (two approvals at once, or a retry).
  const placed = await businessPlace(deps.db, businessId);
  if (placed) return { businessId, shard: placed.shard, superAdministrator: ask.adminUserId };
  const holder = await businessWithIdentifier(deps.db, ask.identifier);
  if (holder && holder !== businessId) throw new RuleError(`${IDENTIFIER_TAKEN} Reject this request: the identifier ${ask.identifier} cannot be used twice.`);
  if (!shardNames(env).includes(ask.shard))
    throw new RuleError(`The database ${ask.shard} is no longer bound to the portal. Reject this request and ask again.`);
  const accounts = await accountsForInvitation(deps.db, ask.admin.email, ask.adminUserId);
  const account = accounts.find((a) => a.email === ask.admin.email) ?? null;
  if (accounts.length > 1) throw new RuleError(`The account of ${ask.admin.email} changed since this was asked. Reject this request and ask again.`);
  if (account?.status === "disabled") throw new RuleError(`The account of ${ask.admin.email} is disabled: its person could not sign in to the business.`);
  const at = new Date(deps.now()).toISOString();
  const admin: FirstAdministrator = account
    ? { account, isNew: false, contactPhone: ask.admin.phone }
    : {
        account: {
          id: ask.adminUserId,
          email: ask.admin.email,
          name: ask.admin.name,
          gender: "unspecified",
          status: "active",
          createdAt: at,
          phones: [{ msisdn: ask.admin.phone, createdAt: at, linkedBy: "invitation" }],
        },
        isNew: true,
        contactPhone: ask.admin.phone,
      };
  const business: NewBusiness = {
    id: businessId,
    name: ask.name,
    tradingName: ask.tradingName,
    identifier: ask.identifier,
    contactNumber: ask.contactNumber,
    contactEmail: ask.contactEmail,
    town: ask.town,
    region: ask.region,
    sector: ask.sector,
    logoUrl: ask.logo ? logoUrl(businessId) : null,
    createdAt: at,
  };
  const audit = {
    meta: deps.meta,
    after: { by: "platform", staff: staff.name, request: request.id, name: ask.name, identifier: ask.identifier, superAdministrator: ask.admin.email },
  };
  try {
    await databaseNamed(env, ask.shard).batch(shardOnboardingStatements(databaseNamed(env, ask.shard), business, admin, audit, at));
  } catch (error) {
    if (isBusinessMoving(error)) throw new RuleError(MOVING_MESSAGE);
    throw error;
  }
  await deps.db.batch(coreOnboardingStatements(deps.db, business, admin, ask.shard, at));
  return { businessId, shard: ask.shard, superAdministrator: admin.account.id, existingAccount: !admin.isNew };
}

export const ONBOARDING_SPEC: PlatformKindSpec = {
  kind: "onboard_business",
  title: (request) => `Onboard ${displayName(askOf(request))}`,
  facts: (request) => {
    const ask = askOf(request);
    return [
      ["Legal name", ask.name],
      ["Trading name", ask.tradingName ?? "Same as the legal name"],
      ["Business identifier", ask.identifier],
      ["Sector", ask.sector],
      ["Town", ask.town],
      ["Region", ask.region],
      ["Contact number", ask.contactNumber],
      ["Contact email", ask.contactEmail],
      ["Logo", ask.logo ? `${LOGO_WORDS[ask.logo.contentType]}, ${Math.max(1, Math.round(ask.logo.size / 1024))} KB` : "None"],
      ["Database", ask.shardChosen ? `${ask.shard} (chosen)` : `${ask.shard} (the fewest businesses when asked)`],
      ["Super Administrator", ask.admin.name],
      ["Their email", ask.admin.email],
      ["Their phone", ask.admin.phoneMasked],
      [
        "Their account",
        ask.adminExisting
          ? "Already has one: it becomes this business's Super Administrator, with its own name and numbers."
          : "New: made with this name, and this phone as its way to sign in.",
      ],
      ["Business id", request.subjectId],
    ];
  },
  apply,
};
