// OpenID Connect sign-in (functions/oidc/) against REAL OpenID providers:
// two oidc-provider 8.x instances on 127.0.0.1, one like Google and one like
// Microsoft Entra ID's common authority (tenant issuer, `{tenantid}` template).
// The authorization-code flow with PKCE is driven from Node through the
// provider's own login and consent pages; the email it yields starts a login
// against the real D1 of the built worker in Miniflare.
import { SignJWT, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthDeps } from "#server/auth/deps";
import { OidcError, isOidcConfigured, type OidcDeps, type OidcProviderId } from "#server/oidc/oidc";
import { completeOidc, startOidc } from "#server/oidc/oidc-flow";
import { clearOidcCaches, discover, exchangeCode, verifyIdToken } from "#server/oidc/oidc-issuer";
import { startLogin } from "#server/auth/sign-in";
import { configOf, type OidcConfig } from "#server/env";
import { authorize, closedPort, startOidcProvider, type LocalProvider } from "../support/oidc-provider";
import { META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const ORIGIN = "https://portal.example.com";
const SECRET = "oidc-test-session-secret-".padEnd(40, "s");
const AMA = "ama.mensah@example.com";
const TENANT = "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const redirect = (provider: OidcProviderId) => `${ORIGIN}/auth/oidc/${provider}/callback`;

let google: LocalProvider;
let microsoft: LocalProvider;
let oidc: OidcConfig;

beforeAll(async () => {
  google = await startOidcProvider({
    kind: "google",
    clients: [
      { clientId: "portal-google", clientSecret: "google-secret", redirectUris: [redirect("google")] },
      { clientId: "another-app", clientSecret: "another-secret", redirectUris: [redirect("google")] },
    ],
    accounts: [
      { id: "ama", claims: { email: "Ama.Mensah@Example.com", email_verified: true, name: "Ama Mensah" } },
      { id: "unverified", claims: { email: AMA, email_verified: false } },
    ],
  });
  microsoft = await startOidcProvider({
    kind: "microsoft",
    tenantId: TENANT,
    clients: [{ clientId: "portal-microsoft", clientSecret: "microsoft-secret", redirectUris: [redirect("microsoft")] }],
    // The username (preferred_username) is the email, not the `email` claim.
    accounts: [{ id: "ama-work", claims: { tid: TENANT, preferred_username: AMA, email: "someone.else@example.com", name: "Ama Mensah" } }],
  });
  oidc = configOf({
    MICROSOFT_ISSUER: microsoft.configuredIssuer,
    MICROSOFT_CLIENT_ID: "portal-microsoft",
    MICROSOFT_CLIENT_SECRET: "microsoft-secret",
    GOOGLE_ISSUER: google.configuredIssuer,
    GOOGLE_CLIENT_ID: "portal-google",
    GOOGLE_CLIENT_SECRET: "google-secret",
  }).oidc;
});

afterAll(async () => {
  await google?.close();
  await microsoft?.close();
});

const auth = configOf({ ENVIRONMENT: "development", SESSION_SECRET: SECRET }).auth;
const deps = (overrides: Partial<OidcDeps> = {}): OidcDeps => ({ config: auth, oidc, now: () => Date.now(), ...overrides });

/** The popup's redirect URI request: the provider's answer plus the browser's flow cookie. */
function callbackRequest(answer: URL, setCookie: string): Request {
  return new Request(answer.toString(), { headers: { Cookie: setCookie.split(";")[0]! } });
}

async function failure(result: Promise<unknown>): Promise<OidcError> {
  const settled = await result;
  if (settled && typeof settled === "object" && "ok" in settled && settled.ok === false && "error" in settled) return settled.error as OidcError;
  throw new Error(`expected a failure, got ${JSON.stringify(settled)}`);
}

async function thrown(action: Promise<unknown>): Promise<OidcError> {
  try {
    await action;
  } catch (error) {
    if (error instanceof OidcError) return error;
    throw error;
  }
  throw new Error("expected an OidcError");
}

describe("a successful sign-in", () => {
  it("google: PKCE S256, state and nonce, the verified email, then startLogin", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const url = new URL(start.url);
    expect(url.origin + url.pathname).toBe(`${google.origin}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "portal-google",
      redirect_uri: redirect("google"),
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(start.setCookie).toMatch(/^__Host-pp_oidc=[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    // The cookie is encrypted: neither the verifier nor the nonce can be read from it.
    expect(start.setCookie).not.toContain(url.searchParams.get("nonce"));

    const answer = await authorize(start.url, { login: "ama" });
    expect(answer.searchParams.get("code")).toBeTruthy();
    const result = await completeOidc(callbackRequest(answer, start.setCookie), deps(), "google");
    expect(result).toMatchObject({ ok: true, email: "Ama.Mensah@Example.com", channel: "google" });
    expect(result.setCookie).toBe("__Host-pp_oidc=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    if (!result.ok) return;

    const authDeps: AuthDeps = {
      db: portal().core(),
      businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }),
      config: auth,
      meta: META,
      now: () => Date.now(),
    };
    const login = await startLogin(new Request(`${ORIGIN}${answer.pathname}`), authDeps, { email: result.email, channel: result.channel });
    expect(login).toMatchObject({ ok: true, session: { email: AMA, authenticationChannel: "google", stage: "identified", returnUrl: "/login" } });
  });

  it("microsoft (common authority): select_account, User.Read, the tenant issuer, preferred_username", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "microsoft");
    const url = new URL(start.url);
    expect(url.origin + url.pathname).toBe(`${microsoft.issuer}/auth`);
    expect(url.searchParams.get("prompt")).toBe("select_account");
    expect(url.searchParams.get("scope")).toBe("openid profile email User.Read");
    const metadata = await discover("microsoft", oidc.microsoft!);
    expect(metadata.issuer).toBe(`${microsoft.origin}/{tenantid}/v2.0`);

    const answer = await authorize(start.url, { login: "ama-work" });
    const result = await completeOidc(callbackRequest(answer, start.setCookie), deps(), "microsoft");
    expect(result).toMatchObject({ ok: true, email: AMA, channel: "microsoft" });
    if (!result.ok) return;
    const authDeps: AuthDeps = {
      db: portal().core(),
      businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }),
      config: auth,
      meta: META,
      now: () => Date.now(),
    };
    const login = await startLogin(new Request(`${ORIGIN}/login`), authDeps, { email: result.email, channel: result.channel });
    expect(login).toMatchObject({ ok: true, session: { email: AMA, authenticationChannel: "microsoft" } });
  });

  it("the flow cookie is plain-named on http://localhost and still works", async () => {
    const localOidc = { ...oidc, redirectBaseUrl: ORIGIN };
    const start = await startOidc(new Request("http://localhost:8788/login"), deps({ oidc: localOidc }), "google");
    expect(start.setCookie).toMatch(/^pp_oidc=.*; Max-Age=600$/);
    const answer = await authorize(start.url, { login: "ama" });
    const request = new Request(answer.toString().replace(ORIGIN, "http://localhost:8788"), { headers: { Cookie: start.setCookie.split(";")[0]! } });
    expect(await completeOidc(request, deps({ oidc: localOidc }), "google")).toMatchObject({ ok: true, email: "Ama.Mensah@Example.com" });
  });
});

describe("refusals", () => {
  it("a wrong state, or no flow cookie, or another provider's cookie", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const answer = await authorize(start.url, { login: "ama" });
    const forged = new URL(answer);
    forged.searchParams.set("state", "x".repeat(43));
    expect((await failure(completeOidc(callbackRequest(forged, start.setCookie), deps(), "google"))).code).toBe("state_mismatch");
    expect((await failure(completeOidc(new Request(answer.toString()), deps(), "google"))).code).toBe("state_mismatch");
    // The Microsoft callback with a Google flow cookie.
    const microsoftOidc = { ...oidc, microsoft: oidc.microsoft };
    expect((await failure(completeOidc(callbackRequest(answer, start.setCookie), deps({ oidc: microsoftOidc }), "microsoft"))).code).toBe("state_mismatch");
    // A cookie encrypted under another secret.
    const otherSecret = configOf({ SESSION_SECRET: "another-secret-".padEnd(40, "a") }).auth;
    expect((await failure(completeOidc(callbackRequest(answer, start.setCookie), deps({ config: otherSecret }), "google"))).code).toBe("state_mismatch");
    // An expired flow (the cookie lives 10 minutes).
    expect((await failure(completeOidc(callbackRequest(answer, start.setCookie), deps({ now: () => Date.now() + 11 * 60_000 }), "google"))).code).toBe(
      "state_mismatch",
    );
  });

  it("the code of another start is refused (PKCE binds it to that start's verifier)", async () => {
    const first = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const second = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const firstAnswer = await authorize(first.url, { login: "ama" });
    const replay = new URL(firstAnswer);
    replay.searchParams.set("state", new URL(second.url).searchParams.get("state")!);
    const error = await failure(completeOidc(callbackRequest(replay, second.setCookie), deps(), "google"));
    expect(error).toMatchObject({ code: "token_exchange_failed", detail: { providerError: "invalid_grant" } });
  });

  it("a code is single use", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const answer = await authorize(start.url, { login: "ama" });
    expect(await completeOidc(callbackRequest(answer, start.setCookie), deps(), "google")).toMatchObject({ ok: true });
    expect((await failure(completeOidc(callbackRequest(answer, start.setCookie), deps(), "google"))).code).toBe("token_exchange_failed");
  });

  it("access_denied (the user cancelled at the provider)", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const answer = await authorize(start.url, "abort");
    expect(answer.searchParams.get("error")).toBe("access_denied");
    const error = await failure(completeOidc(callbackRequest(answer, start.setCookie), deps(), "google"));
    expect(error).toMatchObject({ code: "cancelled", message: "Sign-in was cancelled." });
  });

  it("interaction_required: a silent attempt with no provider session", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "microsoft", { silent: true });
    expect(new URL(start.url).searchParams.get("prompt")).toBe("none");
    const answer = await authorize(start.url, "none");
    expect(answer.searchParams.get("error")).toBe("login_required");
    const error = await failure(completeOidc(callbackRequest(answer, start.setCookie), deps(), "microsoft"));
    expect(error).toMatchObject({ code: "interaction_required", detail: { providerError: "login_required" } });
  });

  it("Google's email must be verified", async () => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const answer = await authorize(start.url, { login: "unverified" });
    expect(await failure(completeOidc(callbackRequest(answer, start.setCookie), deps(), "google"))).toMatchObject({
      code: "invalid_id_token",
      reason: "email",
    });
  });

  it.each([
    ["no code", "?state=abc"],
    ["a repeated code", "?code=a&code=b&state=abc"],
    ["control characters", "?code=a%00b&state=abc"],
    ["a state too long", `?code=a&state=${"s".repeat(513)}`],
    ["an error with a malformed code", "?error=access%20denied&state=abc"],
  ])("an invalid callback query: %s", async (_name, query) => {
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps(), "google");
    const request = new Request(`${redirect("google")}${query}`, { headers: { Cookie: start.setCookie.split(";")[0]! } });
    expect((await failure(completeOidc(request, deps(), "google"))).code).toBe("invalid_callback");
  });
});

describe("ID token checks on real tokens", () => {
  /** A code flow of the test's own (its verifier, its nonce) and the ID token it yields. */
  async function realIdToken(provider: OidcProviderId, clientId: string, clientSecret: string, login: string) {
    const local = provider === "google" ? google : microsoft;
    const client = { issuer: local.configuredIssuer, clientId, clientSecret };
    const metadata = await discover(provider, client);
    const verifier = "v".repeat(43);
    const challenge = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url");
    const url = new URL(metadata.authorization_endpoint);
    const params = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirect(provider),
      scope: "openid email profile",
      state: "s",
      nonce: "the-nonce",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    for (const [k, val] of Object.entries(params)) url.searchParams.set(k, val);
    const answer = await authorize(url.toString(), { login });
    const idToken = await exchangeCode(metadata, client, { code: answer.searchParams.get("code")!, verifier, redirectUri: redirect(provider) });
    return { idToken, metadata };
  }

  it("accepts the right nonce and audience, refuses another nonce", async () => {
    const { idToken, metadata } = await realIdToken("google", "portal-google", "google-secret", "ama");
    const expected = { provider: "google" as const, metadata, clientId: "portal-google", nonce: "the-nonce", now: Date.now() };
    await expect(verifyIdToken(idToken, expected)).resolves.toMatchObject({ aud: "portal-google", nonce: "the-nonce" });
    expect(await thrown(verifyIdToken(idToken, { ...expected, nonce: "another-start" }))).toMatchObject({ code: "invalid_id_token", reason: "nonce" });
  });

  it("refuses a token for another audience", async () => {
    const { idToken, metadata } = await realIdToken("google", "another-app", "another-secret", "ama");
    const error = await thrown(verifyIdToken(idToken, { provider: "google", metadata, clientId: "portal-google", nonce: "the-nonce", now: Date.now() }));
    expect(error).toMatchObject({ code: "invalid_id_token", reason: "audience" });
  });

  it("refuses an expired token (a clock two hours on; the provider's tokens last one)", async () => {
    const { idToken, metadata } = await realIdToken("google", "portal-google", "google-secret", "ama");
    const error = await thrown(
      verifyIdToken(idToken, { provider: "google", metadata, clientId: "portal-google", nonce: "the-nonce", now: Date.now() + 2 * 3_600_000 }),
    );
    expect(error).toMatchObject({ code: "invalid_id_token", reason: "expired" });
  });

  it("refuses a token signed with a key the JWKS does not have", async () => {
    const { metadata } = await realIdToken("google", "portal-google", "google-secret", "ama");
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ nonce: "the-nonce", email: AMA, email_verified: true })
      .setProtectedHeader({ alg: "RS256", kid: "not-in-the-jwks" })
      .setIssuer(metadata.issuer)
      .setAudience("portal-google")
      .setSubject("ama")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);
    const error = await thrown(verifyIdToken(forged, { provider: "google", metadata, clientId: "portal-google", nonce: "the-nonce", now: Date.now() }));
    expect(error).toMatchObject({ code: "invalid_id_token", reason: "signature" });
  });

  it("microsoft: the iss must be the template filled with the token's own tid", async () => {
    const { idToken, metadata } = await realIdToken("microsoft", "portal-microsoft", "microsoft-secret", "ama-work");
    const expected = { provider: "microsoft" as const, metadata, clientId: "portal-microsoft", nonce: "the-nonce", now: Date.now() };
    await expect(verifyIdToken(idToken, expected)).resolves.toMatchObject({ iss: microsoft.issuer, tid: TENANT });
    // Another published issuer: the token's iss no longer fits.
    const other = { ...metadata, issuer: `${microsoft.origin}/{tenantid}/v2.1` };
    expect(await thrown(verifyIdToken(idToken, { ...expected, metadata: other }))).toMatchObject({ code: "invalid_id_token", reason: "issuer" });
  });
});

describe("configuration and reachability", () => {
  it("an unset provider is not configured", async () => {
    const none = configOf({}).oidc;
    expect(isOidcConfigured(none, "google")).toBe(false);
    expect(isOidcConfigured(oidc, "google")).toBe(true);
    expect((await thrown(startOidc(new Request(`${ORIGIN}/login`), deps({ oidc: none }), "microsoft"))).code).toBe("not_configured");
  });

  it("the provider unreachable (closed port) at start", async () => {
    const port = await closedPort();
    const down = configOf({ GOOGLE_ISSUER: `http://127.0.0.1:${port}`, GOOGLE_CLIENT_ID: "c", GOOGLE_CLIENT_SECRET: "s" }).oidc;
    const error = await thrown(startOidc(new Request(`${ORIGIN}/login`), deps({ oidc: down }), "google"));
    expect(error).toMatchObject({ code: "unreachable", message: "Action Failed. Please check connectivity and try again" });
  });

  it("the provider unreachable at the token exchange", async () => {
    const flaky = await startOidcProvider({
      kind: "google",
      clients: [{ clientId: "portal-google", clientSecret: "google-secret", redirectUris: [redirect("google")] }],
      accounts: [{ id: "ama", claims: { email: AMA, email_verified: true } }],
    });
    const flakyOidc = configOf({ GOOGLE_ISSUER: flaky.configuredIssuer, GOOGLE_CLIENT_ID: "portal-google", GOOGLE_CLIENT_SECRET: "google-secret" }).oidc;
    const start = await startOidc(new Request(`${ORIGIN}/login`), deps({ oidc: flakyOidc }), "google");
    const answer = await authorize(start.url, { login: "ama" });
    await flaky.close();
    const error = await failure(completeOidc(callbackRequest(answer, start.setCookie), deps({ oidc: flakyOidc }), "google"));
    expect(error.code).toBe("unreachable");
    clearOidcCaches();
  });
});
