// What the sign-in functions need, built once per request from the load context.
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { BusinessDb, RequestMeta } from "../tenancy/tenant";
import { relyingPartyFor, type AuthConfig } from "../env";
import type { OidcDeps } from "../oidc/oidc";

export interface AuthDeps {
  /** The core database: sign-in, sessions, the directory. A business's rows are reached through its tenant. */
  db: D1Database;
  /** A business's database for this request, by the directory's name for it (functions/tenancy/shards.ts). */
  businessDb: (businessId: string, shard: string) => BusinessDb;
  config: AuthConfig;
  meta: RequestMeta;
  /** Epoch ms; tests pass their own clock. */
  now: () => number;
}

/** Where the request came from, for the audit log (Cloudflare sets CF-Connecting-IP). */
export function requestMeta(request: Request, requestId: string | null): RequestMeta {
  return { ip: request.headers.get("CF-Connecting-IP"), userAgent: request.headers.get("User-Agent"), requestId };
}

/** One per load context (one per request): the guards read the session once per request through it. */
export function authDeps(request: Request, context: AppLoadContext): AuthDeps {
  let deps = perRequest.get(context);
  if (!deps) {
    const env = context.cloudflare.env;
    const config = context.config.auth;
    deps = {
      db: env.DB,
      businessDb: (businessId, shard) => context.databases.forBusiness(businessId, shard),
      // Passkeys outside production without a configured relying party: this request's own host and origin.
      config: { ...config, relyingParty: relyingPartyFor(config, request.url) },
      meta: requestMeta(request, context.requestId),
      now: () => Date.now(),
    };
    perRequest.set(context, deps);
  }
  return deps;
}

const perRequest = new WeakMap<AppLoadContext, AuthDeps>();

export const iso = (ms: number) => new Date(ms).toISOString();

/** What the OpenID Connect flow needs (functions/oidc/). */
export function oidcDeps(context: AppLoadContext, deps: AuthDeps): OidcDeps {
  return { config: deps.config, oidc: context.config.oidc, now: deps.now };
}
