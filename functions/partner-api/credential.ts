// Who is calling the Partner API, and for which business. Two kinds of bearer key:
//  - a business's own key (Settings → Developers) acts for its business only. PP-Business may be sent and must then
//    name that business: a business key never acts for another.
//  - a platform key (the switch's credential, /platform/keys) acts for the business named in PP-Business, as Stripe
//    Connect's Stripe-Account does, and only within its scopes. It still acts for a suspended business: money that moved
//    at the switch must be recorded, while suspension stops the business's own people and keys.
// A closed business takes nothing from either. A key that is no key is the same 401 whatever its kind.
import * as v from "valibot";
import { findKeyByHash, touchApiKey } from "./api-keys.db";
import { bearerKey, hashKey, isPlatformKey } from "./keys";
import { problem, type ApiDeps } from "./request";
import { businessPlace, keyPlace, type BusinessPlace } from "../tenancy/directory.db";
import type { BusinessDb } from "../tenancy/tenant";
import { isTestBusiness, liveBusinessOf } from "../tenancy/test-mode";
import { findPlatformKeyByHash, touchPlatformKey } from "../operators/platform-keys.db";
import { allows, type PlatformScope } from "../operators/platform-scopes";

/** The header that names the business a platform key acts for. */
export const BUSINESS_HEADER = "PP-Business";
/** A business id as the header may carry it; anything else is no business (404), like an unknown id. */
export const BusinessIdHeader = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,100}$/));

export const MESSAGES = {
  unauthorized: "Missing or invalid API key. Send Authorization: Bearer <key>.",
  businessRequired: `${BUSINESS_HEADER} header is required with a platform key: name the business this request is for.`,
  noSuchBusiness: "No business with that id.",
  notYourBusiness: `This is a business's own key: it acts for its business only. Leave ${BUSINESS_HEADER} out, or name this key's business.`,
  suspended: "This business is suspended: its API keys are refused until the platform reactivates it.",
  closed: "This business is closed: the API takes nothing more for it.",
  outOfScope: (scope: PlatformScope) => `This key's scopes do not include ${scope}.`,
  testKeyForLiveData:
    "This pp_test_ key was made before test mode and acts for live data, which pp_test_ keys no longer do. Make a new key in Settings → Developers: a pp_live_ key, or a pp_test_ key in Test mode.",
  businessKeyRequired: "Only a business's own key reads its events feed, sends its webhook deliveries again and asks for refunds; a platform key does not.",
} as const;

export interface Credential {
  kind: "business" | "platform";
  keyId: string;
  /** The business the request acts for, on the database that holds it. */
  business: BusinessDb;
  /** Requests are counted per key and business: one platform key pushing for many businesses gets a fair share for each. */
  rateClient: string;
  /** The API version the key is pinned to (a request may name another in PP-Version: ./versions.ts). */
  apiVersion: string;
  /**
   * What an Idempotency-Key is stored under in the business's api_idempotency. A business's own keys use the key as
   * sent (as ever); the platform's are set apart with a space, which no Idempotency-Key may hold, so the switch and
   * the business's own systems never replay or refuse each other's requests. The business id keys the table, so two
   * businesses' keys never meet either.
   */
  idempotencyKey: (sent: string) => string;
}

const unauthorized = () => problem("unauthorized", MESSAGES.unauthorized, undefined, { "WWW-Authenticate": 'Bearer realm="partners-portal"' });

const refusedFor = (place: BusinessPlace): Response | null => (place.lifecycle === "closed" ? problem("business_closed", MESSAGES.closed) : null);

/**
 * What may run an operation (its row in ./operations.ts): a platform key holding this scope (and any business's own
 * key), or, "business-key", only a business's own key.
 */
export type Access = PlatformScope | "business-key";

/** The credential of a request for an operation, or the answer that refuses it. Records the key's last use (to the minute). */
export async function authenticate(request: Request, deps: ApiDeps, access: Access): Promise<Credential | Response> {
  const key = bearerKey(request);
  if (!key) return unauthorized();
  const secretHash = await hashKey(key);
  // An empty header is no header, for either kind of key.
  const named = request.headers.get(BUSINESS_HEADER)?.trim() || null;
  const now = deps.now();
  // Last use is kept to the minute: most requests write nothing.
  const stale = (lastUsedAt: number | null) => lastUsedAt === null || lastUsedAt < now - 60_000;

  if (isPlatformKey(key)) {
    const holder = await findPlatformKeyByHash(deps.core, secretHash, now);
    if (!holder) return unauthorized();
    if (stale(holder.lastUsedAt)) deps.waitUntil(touchPlatformKey(deps.core, holder, now).catch(() => {}));
    if (named === null) return problem("business_required", MESSAGES.businessRequired);
    const place = v.is(BusinessIdHeader, named) ? await businessPlace(deps.core, named) : null;
    if (!place) return problem("business_not_found", MESSAGES.noSuchBusiness);
    const refused = refusedFor(place);
    if (refused) return refused;
    if (access === "business-key") return problem("business_key_required", MESSAGES.businessKeyRequired);
    if (!allows(holder.scopes, access)) return problem("out_of_scope", MESSAGES.outOfScope(access));
    return {
      kind: "platform",
      keyId: holder.keyId,
      business: { businessId: place.businessId, db: deps.database(place.shard) },
      rateClient: `${holder.keyId}:${place.businessId}`,
      apiVersion: holder.apiVersion,
      idempotencyKey: (sent) => `platform ${sent}`,
    };
  }

  // 401 says nothing more: not whether the key ever existed, nor whose it was.
  const place = await keyPlace(deps.core, secretHash);
  const business: BusinessDb | null = place ? { businessId: place.businessId, db: deps.database(place.shard) } : null;
  const holder = business ? await findKeyByHash(business, secretHash, now) : null;
  if (!place || !business || !holder) return unauthorized();
  if (stale(holder.lastUsedAt)) deps.waitUntil(touchApiKey(business, holder, now).catch(() => {}));
  // Test data is only ever a pp_test_ key's and a pp_test_ key's is only ever test data (decision 045). A live business
  // holding a pp_test_ key is one made before test mode, when development deployments made them for live data.
  if (key.startsWith("pp_test_") !== isTestBusiness(place.businessId)) return problem("test_key_for_live_data", MESSAGES.testKeyForLiveData);
  // Whatever the header names, a business's key is its business's: another id, known or not, gets the same answer. A
  // test key may name its live business, whose test data it acts for.
  if (named !== null && named !== place.businessId && named !== liveBusinessOf(place.businessId)) return problem("not_your_business", MESSAGES.notYourBusiness);
  const refused = refusedFor(place);
  if (refused) return refused;
  if (place.lifecycle === "suspended" || holder.suspended) return problem("business_suspended", MESSAGES.suspended);
  return { kind: "business", keyId: holder.keyId, business, rateClient: holder.keyId, apiVersion: holder.apiVersion, idempotencyKey: (sent) => sent };
}
