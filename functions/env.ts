import * as v from "valibot";

/** Used only outside production so `npm start` works with no secrets set. */
export const DEV_SESSION_SECRET = "dev-only-session-secret-never-use-in-production-0000";

const Environment = v.picklist(["development", "test", "production"]);

const RawConfig = v.object({
  ENVIRONMENT: v.optional(Environment, "development"),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, "SESSION_SECRET must be at least 32 characters"))),
});

export interface AppConfig {
  environment: v.InferOutput<typeof Environment>;
  sessionSecret: string;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The Worker's vars and secrets, checked once per request before anything uses them. */
export function parseConfig(env: Record<string, unknown>): AppConfig {
  // An empty value (SESSION_SECRET= in .dev.vars) means "not set".
  const secret = env.SESSION_SECRET === "" ? undefined : env.SESSION_SECRET;
  const parsed = v.safeParse(RawConfig, { ENVIRONMENT: env.ENVIRONMENT, SESSION_SECRET: secret });
  if (!parsed.success) {
    const issues = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "env"}: ${issue.message}`);
    throw new ConfigError(`Invalid Worker configuration: ${issues.join("; ")}`);
  }
  const { ENVIRONMENT, SESSION_SECRET } = parsed.output;
  if (ENVIRONMENT === "production" && !SESSION_SECRET) {
    throw new ConfigError("Invalid Worker configuration: SESSION_SECRET is required in production");
  }
  return { environment: ENVIRONMENT, sessionSecret: SESSION_SECRET ?? DEV_SESSION_SECRET };
}
