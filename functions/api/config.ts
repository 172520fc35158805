// The Partner API's settings from the Worker's environment (wrangler.toml [vars]).
import * as v from "valibot";

const Raw = v.object({
  API_RATE_LIMIT_PER_MINUTE: v.optional(
    v.pipe(
      v.string("API_RATE_LIMIT_PER_MINUTE must be a whole number"),
      v.regex(/^\d{1,6}$/, "API_RATE_LIMIT_PER_MINUTE must be a whole number"),
      v.transform(Number),
      v.minValue(1),
    ),
    "1200",
  ),
});

export interface ApiConfig {
  /** Requests a minute per API key (a batch of 100 payments is one request). */
  rateLimitPerMinute: number;
}

export function apiConfig(env: Record<string, unknown>): ApiConfig {
  // An empty value (a copied .dev.vars.example) is the default.
  const raw = v.parse(Raw, { API_RATE_LIMIT_PER_MINUTE: env.API_RATE_LIMIT_PER_MINUTE === "" ? undefined : env.API_RATE_LIMIT_PER_MINUTE });
  return { rateLimitPerMinute: raw.API_RATE_LIMIT_PER_MINUTE };
}
