// Onboarding a business (decision 039): one Platform Administrator asks at /platform/businesses/new, another
// decides. Nothing of the business exists before the approval: no directory entry, no row, no person; only the request
// and its logo, stored as it is asked (the checker sees what the business will show). Approving makes the business on
// its shard and in the core database (onboarding.db.ts), with its first two people, a Super Administrator and an
// Administrator, who then sign in as anyone does and find an empty business that works: its row, their memberships,
// its ledger accounts. Two, because every change a business makes is maker-checker and nobody decides their own
// request: a business made with one person could never have anything approved, not even inviting a second.
import * as v from "valibot";
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
  type FoundingMember,
  type NewBusiness,
} from "./onboarding.db";
import type { PlatformRequestRow } from "./requests.db";
import { askPlatform, type PlatformKindSpec, type PlatformRun } from "./requests";

/** The roles a business starts with: two people who can decide, so each can approve what the other asks for. */
export type FoundingRole = "Super Administrator" | "Administrator";

/** One of the business's first two people as typed (the email lower case, the number as 233XXXXXXXXX). */
export interface FoundingPerson {
  role: FoundingRole;
  name: string;
  email: string;
  phone: string;
  phoneMasked: string;
}

/** What the form gives, read by app/routes/platform/onboarding-form.ts (names trimmed, numbers as 233XXXXXXXXX, emails lower case). */
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
  /** The Super Administrator, then the Administrator: two different emails and two different numbers. */
  people: readonly [FoundingPerson, FoundingPerson];
}

/** A founding person as the request keeps them: with the account their email had when asked. */
export interface AskedPerson extends FoundingPerson {
  /** The account the email had when asked, or the id a new person will get. */
  userId: string;
  existing: boolean;
}

/** What the request keeps: the fields, where the business goes, who its first two people are, and its logo. */
export interface OnboardingAsk extends Omit<OnboardingFields, "shard" | "people"> {
  shard: string;
  /** Whether the maker chose the database (else: the fewest businesses when asked). */
  shardChosen: boolean;
  people: readonly [AskedPerson, AskedPerson];
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
  const asked = async (person: FoundingPerson): Promise<AskedPerson> => {
    const existing = await accountIdByEmail(maker.deps.db, person.email);
    return { ...person, userId: existing ?? `usr_${crypto.randomUUID()}`, existing: Boolean(existing) };
  };
  const ask: OnboardingAsk = {
    ...fields,
    shard: placement.shard,
    shardChosen: placement.chosen,
    people: [await asked(fields.people[0]), await asked(fields.people[1])],
    logo: logo ? { contentType: logo.contentType, size: logo.file.size } : null,
  };
  if (logo) {
    await bucket.put(logoKey(businessId), await logo.file.arrayBuffer(), {
      httpMetadata: { contentType: logo.contentType },
      customMetadata: { businessId, uploadedBy: maker.staff.userId },
    });
  }
  try {
    // The audit log shows numbers masked, as the request's page does; the request keeps them whole to apply.
    const audited = { ...ask, people: ask.people.map((person) => ({ ...person, phone: person.phoneMasked })) };
    const { id } = await askPlatform(maker, "onboard_business", businessId, { ...ask }, audited);
    return { id };
  } catch (error) {
    if (logo) await bucket.delete(logoKey(businessId)).catch(() => {});
    throw error;
  }
}

// ---------------------------------------------------------------- the kind

const askedPerson = <R extends FoundingRole>(role: R) =>
  v.object({
    role: v.literal(role),
    name: v.string(),
    email: v.string(),
    phone: v.string(),
    phoneMasked: v.string(),
    userId: v.string(),
    existing: v.boolean(),
  });

/**
 * The request's after_json read strictly: a request kept before onboarding took two people (it has `admin`, no
 * `people`) does not pass, and is then shown as one to reject rather than applied into a business nobody could
 * approve anything in.
 */
const StoredAsk = v.object({
  name: v.string(),
  tradingName: v.nullable(v.string()),
  identifier: v.string(),
  sector: v.string(),
  town: v.string(),
  region: v.string(),
  contactNumber: v.string(),
  contactEmail: v.string(),
  shard: v.string(),
  shardChosen: v.boolean(),
  people: v.strictTuple([askedPerson("Super Administrator"), askedPerson("Administrator")]),
  logo: v.nullable(v.object({ contentType: v.picklist(LOGO_TYPES), size: v.number() })),
});

export const UNREADABLE_ASK =
  "This request was asked before a business started with two administrators, or cannot be read: reject it and ask again with both people.";

function askOf(request: PlatformRequestRow): OnboardingAsk | null {
  const parsed = v.safeParse(StoredAsk, request.after);
  return parsed.success ? (parsed.output satisfies OnboardingAsk) : null;
}

const displayName = (ask: OnboardingAsk) => ask.tradingName ?? ask.name;

const LOGO_WORDS: Record<LogoType, string> = { "image/png": "PNG image", "image/jpeg": "JPEG image", "image/webp": "WebP image" };

async function apply(run: PlatformRun, request: PlatformRequestRow): Promise<Record<string, unknown>> {
  const ask = askOf(request);
  if (!ask) throw new RuleError(UNREADABLE_ASK);
  const { deps, staff } = run;
  const env = run.context.cloudflare.env;
  const businessId = request.subjectId;
  // The directory entry is written last: once it stands, everything before it does (two approvals at once, or a retry).
  const placed = await businessPlace(deps.db, businessId);
  if (placed) return { businessId, shard: placed.shard, superAdministrator: ask.people[0].userId, administrator: ask.people[1].userId };
  const holder = await businessWithIdentifier(deps.db, ask.identifier);
  if (holder && holder !== businessId) throw new RuleError(`${IDENTIFIER_TAKEN} Reject this request: the identifier ${ask.identifier} cannot be used twice.`);
  if (!shardNames(env).includes(ask.shard))
    throw new RuleError(`The database ${ask.shard} is no longer bound to the portal. Reject this request and ask again.`);
  const at = new Date(deps.now()).toISOString();
  const members: [FoundingMember, FoundingMember] = [await foundingMember(deps.db, ask.people[0], at), await foundingMember(deps.db, ask.people[1], at)];
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
    after: {
      by: "platform",
      staff: staff.name,
      request: request.id,
      name: ask.name,
      identifier: ask.identifier,
      superAdministrator: ask.people[0].email,
      administrator: ask.people[1].email,
    },
  };
  try {
    await databaseNamed(env, ask.shard).batch(shardOnboardingStatements(databaseNamed(env, ask.shard), business, members, audit, at));
  } catch (error) {
    if (isBusinessMoving(error)) throw new RuleError(MOVING_MESSAGE);
    throw error;
  }
  await deps.db.batch(coreOnboardingStatements(deps.db, business, members, ask.shard, at));
  const [superAdministrator, administrator] = members;
  return {
    businessId,
    shard: ask.shard,
    superAdministrator: superAdministrator.account.id,
    administrator: administrator.account.id,
    existingAccounts: members.filter((member) => !member.isNew).map((member) => member.account.id),
  };
}

/**
 * A founding person as the core has them now (decision 029): an existing account keeps its own name and numbers, the
 * typed number becoming only the membership's contact; a new person gets the typed name and number to sign in with.
 */
async function foundingMember(core: D1Database, person: AskedPerson, at: string): Promise<FoundingMember> {
  const accounts = await accountsForInvitation(core, person.email, person.userId);
  const account = accounts.find((a) => a.email === person.email) ?? null;
  if (accounts.length > 1) throw new RuleError(`The account of ${person.email} changed since this was asked. Reject this request and ask again.`);
  if (account?.status === "disabled") throw new RuleError(`The account of ${person.email} is disabled: its person could not sign in to the business.`);
  if (account) return { role: person.role, account, isNew: false, contactPhone: person.phone };
  return {
    role: person.role,
    account: {
      id: person.userId,
      email: person.email,
      name: person.name,
      gender: "unspecified",
      status: "active",
      createdAt: at,
      phones: [{ msisdn: person.phone, createdAt: at, linkedBy: "invitation" }],
    },
    isNew: true,
    contactPhone: person.phone,
  };
}

/** One founding person's lines, the same for both (labels unique: the page keys its rows by them), the number masked. */
const personFacts = (person: AskedPerson): (readonly [string, string])[] => [
  [person.role, person.name],
  [`${person.role}'s email`, person.email],
  [`${person.role}'s phone`, person.phoneMasked],
  [
    `${person.role}'s account`,
    person.existing
      ? `Already has one: it becomes this business's ${person.role}, with its own name and numbers.`
      : "New: made with this name, and this phone as its way to sign in.",
  ],
];

export const ONBOARDING_SPEC: PlatformKindSpec = {
  kind: "onboard_business",
  title: (request) => {
    const ask = askOf(request);
    return ask ? `Onboard ${displayName(ask)}` : "Onboard a business (cannot be approved)";
  },
  facts: (request) => {
    const ask = askOf(request);
    if (!ask)
      return [
        ["Why it cannot be approved", UNREADABLE_ASK],
        ["Business id", request.subjectId],
      ];
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
      ...ask.people.flatMap(personFacts),
      ["Business id", request.subjectId],
    ];
  },
  apply,
};
