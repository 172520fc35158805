// The work-account and Google sign-in routes of the built Worker (POST
// /auth/oidc/{provider}/start, GET /auth/oidc/{provider}/callback, GET /login)
// against REAL OpenID providers: two oidc-provider 8.x instances on 127.0.0.1,
// one like Google and one like Microsoft Entra ID's common authority. The portal
// listens on a port chosen first, so the providers know its redirect URIs; the
// browser's part (the provider's pages, the cookie jar) is played from Node.
import { decodeJwt } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { SIGN_IN_FAILURES } from "#server/auth/sign-in-messages";
import { loaderDataOf, textOf } from "../support/html";
import { authorize, closedPort, startOidcProvider, type LocalProvider } from "../support/oidc-provider";
import type { Portal } from "../support/portal";
import { mintSession } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const TENANT = "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const GENERIC = "Action Failed. Please check connectivity and try again";
const SPEC_USER_SWITCH =
  "User attempted to switch accounts in the native broker, which is not allowed. All new accounts must sign-in through the standard web flow first, please try again.";
const CALLBACK_ROUTE = "routes/auth.oidc.callback";

type Provider = "microsoft" | "google";
type Mode = "popup" | "redirect";

let google: LocalProvider;
let microsoft: LocalProvider;

const portal = usePortal(async () => {
  const port = await closedPort();
  const callback = (provider: Provider) => `http://127.0.0.1:${port}/auth/oidc/${provider}/callback`;
  google = await startOidcProvider({
    kind: "google",
    clients: [{ clientId: "portal-google", clientSecret: "google-secret", redirectUris: [callback("google")] }],
    accounts: [
      { id: "ama", claims: { email: "Ama.Mensah@Example.com", email_verified: true, name: "Ama Mensah" } },
      { id: "stranger", claims: { email: "nobody.here@example.com", email_verified: true, name: "No One" } },
    ],
  });
  microsoft = await startOidcProvider({
    kind: "microsoft",
    tenantId: TENANT,
    clients: [{ clientId: "portal-microsoft", clientSecret: "microsoft-secret", redirectUris: [callback("microsoft")] }],
    accounts: [
      { id: "kofi-work", claims: { tid: TENANT, preferred_username: "Kofi.Boateng@example.com", name: "Kofi Boateng" } },
      { id: "ama-work", claims: { tid: TENANT, preferred_username: "ama.mensah@example.com", name: "Ama Mensah" } },
    ],
  });
  return {
    port,
    vars: {
      MICROSOFT_ISSUER: microsoft.configuredIssuer,
      MICROSOFT_CLIENT_ID: "portal-microsoft",
      MICROSOFT_CLIENT_SECRET: "microsoft-secret",
      GOOGLE_ISSUER: google.configuredIssuer,
      GOOGLE_CLIENT_ID: "portal-google",
      GOOGLE_CLIENT_SECRET: "google-secret",
      SIGN_IN_POPUP_SIZE: "520x640",
    },
  };
});

afterAll(async () => {
  await google?.close();
  await microsoft?.close();
});

// --- the browser's side ------------------------------------------------------

/** Set-Cookie headers by cookie name. */
function setCookies(response: Response): Record<string, string> {
  return Object.fromEntries(response.headers.getSetCookie().map((cookie) => [cookie.slice(0, cookie.indexOf("=")), cookie]));
}

/** The name=value a browser sends back for a Set-Cookie. */
const pair = (setCookie: string | undefined) => {
  if (!setCookie) throw new Error("no such cookie was set");
  return setCookie.split(";")[0]!;
};

const sameOrigin = (p: Portal) => ({ Origin: p.url, "Sec-Fetch-Site": "same-origin" });

interface StartOptions {
  mode?: string;
  json?: boolean;
  cookie?: string;
  on?: Portal;
}

/** POST /auth/oidc/<provider>/start as /login's script (json) or its plain form does. */
function startRequest(provider: string, options: StartOptions = {}): Promise<Response> {
  const p = options.on ?? portal();
  const headers: Record<string, string> = { ...sameOrigin(p), Accept: options.json === false ? "text/html,application/xhtml+xml" : "application/json" };
  if (options.cookie) headers.Cookie = options.cookie;
  const body = new URLSearchParams(options.mode === undefined ? {} : { mode: options.mode });
  return p.fetch(`/auth/oidc/${provider}/start`, { method: "POST", headers, body });
}

/** A started flow: the provider URL and the flow cookie the browser now holds. */
async function started(provider: Provider, mode: Mode): Promise<{ url: string; state: string; flowCookie: string }> {
  const response = await startRequest(provider, { mode });
  expect(response.status).toBe(200);
  const { url } = await response.json<{ url: string }>();
  return { url, state: new URL(url).searchParams.get("state")!, flowCookie: pair(setCookies(response).pp_oidc) };
}

/** The provider's redirect to the portal's callback, with the browser's cookies (if any). */
function callback(answer: URL, cookie?: string): Promise<Response> {
  expect(answer.origin).toBe(portal().url);
  return portal().fetch(answer.pathname + answer.search, { headers: cookie ? { Cookie: cookie } : {} });
}

function callbackUrl(provider: Provider, query: Record<string, string>): URL {
  const url = new URL(`/auth/oidc/${provider}/callback`, portal().url);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url;
}

/** The message the callback page posts to its opener (its loader data). */
async function pageMessage(response: Response): Promise<unknown> {
  const data = loaderDataOf(await response.text())[CALLBACK_ROUTE] as { message?: unknown } | undefined;
  return data?.message;
}

interface AuditRow {
  action: string;
  actor_id: string | null;
  business_id: string | null;
  entity_id: string | null;
  after: Record<string, unknown> | null;
}

/** The audit rows a response's request wrote (the request id is on the response). */
async function auditOf(response: Response, on: Portal = portal()): Promise<AuditRow[]> {
  const requestId = response.headers.get("X-Request-Id");
  expect(requestId).toBeTruthy();
  const { results } = await (
    await on.db()
  )
    .prepare("SELECT action, actor_id, business_id, entity_id, after_json FROM audit_log WHERE request_id = ? ORDER BY id")
    .bind(requestId)
    .all<Omit<AuditRow, "after"> & { after_json: string | null }>();
  return results.map(({ after_json, ...row }) => ({ ...row, after: after_json === null ? null : (JSON.parse(after_json) as Record<string, unknown>) }));
}

const CLEARED_FLOW = "pp_oidc=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0";
const CLEARED_SESSION = "pp_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0";
const SESSION_SET = /^pp_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=900$/;

// --- start --------------------------------------------------------------------

describe("POST /auth/oidc/{provider}/start", () => {
  it("microsoft, JSON: the provider's authorization URL with PKCE S256, state, nonce and select_account", async () => {
    const response = await startRequest("microsoft", { mode: "popup" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = await response.json<{ url: string }>();
    expect(Object.keys(body)).toEqual(["url"]);
    const url = new URL(body.url);
    expect(url.origin + url.pathname).toBe(`${microsoft.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "portal-microsoft",
      redirect_uri: `${portal().url}/auth/oidc/microsoft/callback`,
      scope: "openid profile email User.Read",
      code_challenge_method: "S256",
      prompt: "select_account",
    });
    for (const name of ["code_challenge", "state", "nonce"]) expect(url.searchParams.get(name), name).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).not.toBe(url.searchParams.get("nonce"));

    // A new login clears the session; the flow's secrets ride in their own cookie.
    const cookies = setCookies(response);
    expect(Object.keys(cookies).sort()).toEqual(["pp_oidc", "pp_session"]);
    expect(cookies.pp_session).toBe(CLEARED_SESSION);
    expect(cookies.pp_oidc).toMatch(/^pp_oidc=[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // Encrypted: neither the state, the nonce nor the verifier can be read from it.
    expect(cookies.pp_oidc).not.toContain(url.searchParams.get("state"));
    expect(cookies.pp_oidc).not.toContain(url.searchParams.get("nonce"));
  });

  it("google, JSON: no prompt, Google's scopes, a new state every time", async () => {
    const first = await started("google", "popup");
    const url = new URL(first.url);
    expect(url.origin + url.pathname).toBe(`${google.issuer}/auth`);
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.has("prompt")).toBe(false);
    const second = await started("google", "popup");
    expect(second.state).not.toBe(first.state);
    expect(second.flowCookie).not.toBe(first.flowCookie);
  });

  it("without a JSON Accept (the form, no JavaScript): 303 to the provider", async () => {
    const response = await startRequest("google", { json: false, mode: "redirect" });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe(`${google.issuer}/auth`);
    expect(location.searchParams.get("client_id")).toBe("portal-google");
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(setCookies(response).pp_oidc).toMatch(/^pp_oidc=[\w-]+\..*; Max-Age=600$/);
    expect(setCookies(response).pp_session).toBe(CLEARED_SESSION);
  });

  it("refuses a mode other than popup or redirect with 400 and starts nothing", async () => {
    for (const mode of ["window", "", "POPUP"]) {
      const response = await startRequest("google", { mode });
      expect(response.status, mode).toBe(400);
      expect(await response.json()).toEqual({ code: "invalid_request", message: "Choose popup or redirect." });
      expect(setCookies(response).pp_oidc, mode).toBeUndefined();
    }
  });

  it("is not a page: GET is a 404 and starts nothing", async () => {
    for (const provider of ["google", "microsoft"]) {
      const response = await portal().fetch(`/auth/oidc/${provider}/start`);
      expect(response.status, provider).toBe(404);
      expect(response.headers.getSetCookie(), provider).toEqual([]);
      expect(await response.json()).toEqual({ message: `Page not found: /auth/oidc/${provider}/start` });
    }
  });

  it("a body that is not a form is a 400, not a server error", async () => {
    const response = await portal().fetch("/auth/oidc/google/start", {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ mode: "popup" }),
    });
    expect(response.status).toBe(400);
    expect(setCookies(response).pp_oidc).toBeUndefined();
  });

  it("an unknown provider is a 404", async () => {
    const response = await startRequest("facebook", { mode: "popup" });
    expect(response.status).toBe(404);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect((await portal().fetch("/auth/oidc/facebook/callback?code=a&state=b")).status).toBe(404);
  });

  it("refuses a cross-site post with 403 before anything runs", async () => {
    const attempts: Record<string, string>[] = [
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      // The portal's own host on another port is another origin.
      { Origin: "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site" },
      // Neither header: not from a page of the portal.
      {},
    ];
    for (const headers of attempts) {
      const response = await portal().fetch("/auth/oidc/google/start", {
        method: "POST",
        headers: { ...headers, Accept: "application/json" },
        body: new URLSearchParams({ mode: "popup" }),
      });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.headers.getSetCookie(), JSON.stringify(headers)).toEqual([]);
    }
  });

  it("signs out whoever was signed in: the old session is revoked and its cookie cleared", async () => {
    const db = await portal().db();
    const minted = await mintSession(db, portal().url, "ama.mensah@example.com", KUMASI);
    expect((await portal().fetch("/no/such/page", { headers: { Cookie: minted.cookieHeader } })).status).toBe(404);

    const response = await startRequest("google", { mode: "popup", cookie: minted.cookieHeader });
    expect(response.status).toBe(200);
    expect(setCookies(response).pp_session).toBe(CLEARED_SESSION);
    const row = await db.prepare("SELECT revoked_at FROM sessions WHERE id = ?").bind(minted.sid).first<{ revoked_at: string | null }>();
    expect(row?.revoked_at).toBeTruthy();
    expect(await auditOf(response)).toEqual([
      expect.objectContaining({ action: "auth.logout", actor_id: minted.userId, business_id: KUMASI, entity_id: minted.sid }),
    ]);
    // The old cookie no longer opens anything.
    const after = await portal().fetch("/no/such/page", { headers: { Cookie: minted.cookieHeader } });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/login-option");
  });
});

// --- a whole sign-in -------------------------------------------------------------

describe("a whole sign-in, full-page redirect", () => {
  /** After the callback: the session it set, its row, and the person's next page. */
  async function signedInBy(response: Response, provider: Provider, email: string) {
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/authenticate");
    const cookies = setCookies(response);
    expect(cookies.pp_oidc).toBe(CLEARED_FLOW);
    expect(cookies.pp_session).toMatch(SESSION_SET);
    // The channel's return URL, kept where an expired session can still be read.
    expect(cookies.pp_return).toMatch(/^pp_return=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
    expect(decodeJwt(pair(cookies.pp_return).slice("pp_return=".length))).toMatchObject({ returnUrl: "/login" });
    const claims = decodeJwt(pair(cookies.pp_session).slice("pp_session=".length));
    expect(claims).toMatchObject({ email, authenticationChannel: provider, stage: "identified", returnUrl: "/login", otpToken: null, activeBusiness: null });
    const row = await (await portal().db()).prepare("SELECT user_id, channel, stage, revoked_at FROM sessions WHERE id = ?").bind(claims.sid).first();
    expect(row).toEqual({ user_id: claims.sub, channel: provider, stage: "identified", revoked_at: null });
    expect(await auditOf(response)).toEqual([
      { action: "auth.sign_in", actor_id: claims.sub, business_id: null, entity_id: claims.sid, after: { channel: provider } },
    ]);

    // The next step: choosing the phone for the one-time code.
    const next = await portal().fetch("/authenticate", { headers: { Cookie: pair(cookies.pp_session) } });
    expect(next.status).toBe(200);
    expect(textOf(await next.text())).toContain(`Signing in as ${email}`);
    return claims;
  }

  it("google, started by the plain form (no mode: the full-page flow)", async () => {
    const response = await startRequest("google", { json: false });
    expect(response.status).toBe(303);
    const answer = await authorize(response.headers.get("Location")!, { login: "ama" });
    expect(answer.pathname).toBe("/auth/oidc/google/callback");
    const claims = await signedInBy(await callback(answer, pair(setCookies(response).pp_oidc)), "google", "ama.mensah@example.com");
    expect(claims.sub).toBe("usr_ama_mensah");
  });

  it("microsoft (common authority, tenant issuer, preferred_username), started by the script", async () => {
    const flow = await started("microsoft", "redirect");
    const answer = await authorize(flow.url, { login: "kofi-work" });
    const claims = await signedInBy(await callback(answer, flow.flowCookie), "microsoft", "kofi.boateng@example.com");
    expect(claims.sub).toBe("usr_kofi_boateng");
  });

  it("an account no portal user has: back to /login with no_account, no session", async () => {
    const flow = await started("google", "redirect");
    const response = await callback(await authorize(flow.url, { login: "stranger" }), flow.flowCookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?error=no_account");
    expect(setCookies(response)).toEqual({ pp_oidc: CLEARED_FLOW });
    expect(await auditOf(response)).toEqual([
      { action: "auth.sign_in.unknown", actor_id: null, business_id: null, entity_id: null, after: { channel: "google" } },
    ]);

    const login = await portal().fetch("/login?error=no_account");
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toMatch(
      /<p[^>]*data-testid="sign-in-error"[^>]*>No portal account uses this email address\. Check it, or ask your administrator to invite you\.<\/p>/,
    );
  });

  it("the user cancels at the provider: /login?error=cancelled, audited", async () => {
    const flow = await started("google", "redirect");
    const answer = await authorize(flow.url, "abort");
    expect(answer.searchParams.get("error")).toBe("access_denied");
    const response = await callback(answer, flow.flowCookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?error=cancelled");
    expect(setCookies(response)).toEqual({ pp_oidc: CLEARED_FLOW });
    expect(await auditOf(response)).toEqual([
      {
        action: "auth.sign_in.failed",
        actor_id: null,
        business_id: null,
        entity_id: null,
        after: { channel: "google", code: "cancelled", detail: "access_denied" },
      },
    ]);
    expect(textOf(await (await portal().fetch("/login?error=cancelled")).text())).toContain("Sign-in was cancelled.");
  });

  it("a tampered state: state_mismatch, no session", async () => {
    const flow = await started("google", "redirect");
    const answer = await authorize(flow.url, { login: "ama" });
    answer.searchParams.set("state", "x".repeat(43));
    const response = await callback(answer, flow.flowCookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?error=state_mismatch");
    expect(setCookies(response)).toEqual({ pp_oidc: CLEARED_FLOW });
    expect(await auditOf(response)).toEqual([expect.objectContaining({ action: "auth.sign_in.failed", after: { channel: "google", code: "state_mismatch" } })]);
  });

  it("a flow started for Google cannot finish at the Microsoft callback", async () => {
    const flow = await started("google", "redirect");
    const answer = await authorize(flow.url, { login: "ama" });
    const response = await portal().fetch(`/auth/oidc/microsoft/callback${answer.search}`, { headers: { Cookie: flow.flowCookie } });
    expect(response.headers.get("Location")).toBe("/login?error=state_mismatch");
    expect(setCookies(response).pp_session).toBeUndefined();
  });

  it("user_switch from the provider: SPEC section 8's message on /login", async () => {
    const flow = await started("microsoft", "redirect");
    const response = await callback(callbackUrl("microsoft", { error: "user_switch", state: flow.state }), flow.flowCookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?error=user_switch");
    expect(setCookies(response)).toEqual({ pp_oidc: CLEARED_FLOW });
    expect(await auditOf(response)).toEqual([
      expect.objectContaining({ action: "auth.sign_in.failed", after: { channel: "microsoft", code: "user_switch", detail: "user_switch" } }),
    ]);
    const login = await portal().fetch("/login?error=user_switch");
    expect(textOf(await login.text())).toContain(SPEC_USER_SWITCH);
  });

  it.each(["interaction_required", "login_required", "consent_required"])("%s from the provider: interaction_required", async (error) => {
    const flow = await started("microsoft", "redirect");
    const response = await callback(callbackUrl("microsoft", { error, state: flow.state }), flow.flowCookie);
    expect(response.headers.get("Location")).toBe("/login?error=interaction_required");
  });

  it("any other provider error: provider_error; an error with another flow's state: state_mismatch", async () => {
    const flow = await started("google", "redirect");
    const other = await callback(callbackUrl("google", { error: "server_error", state: flow.state }), flow.flowCookie);
    expect(other.headers.get("Location")).toBe("/login?error=provider_error");
    const again = await started("google", "redirect");
    const wrongState = await callback(callbackUrl("google", { error: "access_denied", state: "x".repeat(43) }), again.flowCookie);
    expect(wrongState.headers.get("Location")).toBe("/login?error=state_mismatch");
  });
});

describe("a whole sign-in, popup", () => {
  it("the callback page hands the opener ok and /authenticate, with COOP unsafe-none, and sets the session", async () => {
    const flow = await started("microsoft", "popup");
    const response = await callback(await authorize(flow.url, { login: "ama-work" }), flow.flowCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    // Without it the popup, back from the provider, would lose window.opener.
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe("unsafe-none");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    // The URL carries the authorization code: not even the portal's own requests get it as Referer.
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    const cookies = setCookies(response);
    expect(cookies.pp_oidc).toBe(CLEARED_FLOW);
    expect(cookies.pp_session).toMatch(SESSION_SET);
    expect(decodeJwt(pair(cookies.pp_return).slice("pp_return=".length))).toMatchObject({ returnUrl: "/login" });
    const html = await response.text();
    expect(textOf(html)).toContain("Signed in. Returning to the portal…");
    expect(loaderDataOf(html)[CALLBACK_ROUTE]).toEqual({ message: { type: "partners-portal:sign-in", ok: true, next: "/authenticate" } });
    expect(await auditOf(response)).toEqual([expect.objectContaining({ action: "auth.sign_in", actor_id: "usr_ama_mensah", after: { channel: "microsoft" } })]);
    const next = await portal().fetch("/authenticate", { headers: { Cookie: pair(cookies.pp_session) } });
    expect(next.status).toBe(200);
  });

  it("a failure is a message with its code, not a redirect (interaction_required: the opener falls back to the full page)", async () => {
    const flow = await started("microsoft", "popup");
    const response = await callback(callbackUrl("microsoft", { error: "interaction_required", state: flow.state }), flow.flowCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe("unsafe-none");
    expect(setCookies(response)).toEqual({ pp_oidc: CLEARED_FLOW });
    expect(await pageMessage(response)).toEqual({ type: "partners-portal:sign-in", ok: false, code: "interaction_required" });
  });

  it("no_account in the popup", async () => {
    const flow = await started("google", "popup");
    const response = await callback(await authorize(flow.url, { login: "stranger" }), flow.flowCookie);
    expect(response.status).toBe(200);
    expect(setCookies(response).pp_session).toBeUndefined();
    expect(await pageMessage(response)).toEqual({ type: "partners-portal:sign-in", ok: false, code: "no_account" });
  });

  it("without the flow cookie (mode unknown): the page, with state_mismatch and no session", async () => {
    const flow = await started("google", "redirect");
    const answer = await authorize(flow.url, { login: "ama" });
    const response = await callback(answer);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe("unsafe-none");
    expect(setCookies(response)).toEqual({ pp_oidc: CLEARED_FLOW });
    const html = await response.text();
    expect(loaderDataOf(html)[CALLBACK_ROUTE]).toEqual({ message: { type: "partners-portal:sign-in", ok: false, code: "state_mismatch" } });
    expect(textOf(html)).not.toContain("Signed in.");
    expect(await auditOf(response)).toEqual([expect.objectContaining({ action: "auth.sign_in.failed", after: { channel: "google", code: "state_mismatch" } })]);
  });

  it("a malformed callback query: invalid_callback", async () => {
    const flow = await started("google", "popup");
    const response = await callback(callbackUrl("google", { state: flow.state }), flow.flowCookie);
    expect(await pageMessage(response)).toEqual({ type: "partners-portal:sign-in", ok: false, code: "invalid_callback" });
  });
});

// --- /login and the guards ---------------------------------------------------------------

function formActionOf(response: Response): string[] {
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  const directive =
    csp
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith("form-action ")) ?? "";
  return directive.split(/\s+/).slice(1);
}

describe("/login with both providers configured", () => {
  it("lists both buttons as forms that post to start, and the email channel", async () => {
    const response = await portal().fetch("/login");
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    expect(text).toContain("Sign in with work account");
    expect(text).toContain("Sign in with Google");
    expect(text).toContain("Sign in with your email");
    expect(text).not.toContain("not configured");
    for (const provider of ["microsoft", "google"]) {
      expect(html).toMatch(new RegExp(`<form method="post" action="/auth/oidc/${provider}/start"><input type="hidden" name="mode" value="redirect"/>`));
    }
    expect(loaderDataOf(html)["routes/login"]).toEqual({ configured: { microsoft: true, google: true }, popupSize: "520x640", error: null, ended: null });
  });

  it("CSP form-action: 'self' and the two providers' origins (the form's redirect to the provider)", async () => {
    const response = await portal().fetch("/login");
    expect(formActionOf(response).sort()).toEqual(["'self'", google.origin, microsoft.origin].sort());
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin-allow-popups");
  });

  it("an unknown ?error= shows the generic message and never echoes the parameter", async () => {
    const bogus = textOf(await (await portal().fetch("/login?error=bogus")).text());
    expect(bogus).toContain(GENERIC);
    const html = await (await portal().fetch(`/login?error=${encodeURIComponent("<script>alert(1)</script>")}`)).text();
    expect(html).not.toContain("alert(1)");
    expect(textOf(html)).toContain(GENERIC);
  });

  it.each(Object.keys(SIGN_IN_FAILURES) as (keyof typeof SIGN_IN_FAILURES)[])("?error=%s shows its message", async (code) => {
    const html = await (await portal().fetch(`/login?error=${code}`)).text();
    expect(loaderDataOf(html)["routes/login"]).toMatchObject({ error: SIGN_IN_FAILURES[code] });
  });

  it("signed out: /login is open, and an unknown path sends the visitor to /login first", async () => {
    expect((await portal().fetch("/login")).status).toBe(200);
    for (const path of ["/no/such/page", "/", "/merchants"]) {
      const response = await portal().fetch(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/login");
    }
  });

  it("signed in: /login goes to /, and an unknown path is the 404 page", async () => {
    const minted = await mintSession(await portal().db(), portal().url, "kofi.boateng@example.com", KUMASI);
    const login = await portal().fetch("/login", { headers: { Cookie: minted.cookieHeader } });
    expect(login.status).toBe(302);
    expect(login.headers.get("Location")).toBe("/");
    const missing = await portal().fetch("/no/such/page", { headers: { Cookie: minted.cookieHeader } });
    expect(missing.status).toBe(404);
    expect(textOf(await missing.text())).toContain("Page not found: /no/such/page");
  });

  it("half-way through signing in (identified only), /login stays open", async () => {
    const flow = await started("google", "redirect");
    const session = pair(setCookies(await callback(await authorize(flow.url, { login: "ama" }), flow.flowCookie)).pp_session);
    expect((await portal().fetch("/login", { headers: { Cookie: session } })).status).toBe(200);
  });
});

describe("a portal with Google unreachable and no work account", () => {
  let downIssuer = "";
  const partial = usePortal(async () => {
    downIssuer = `http://127.0.0.1:${await closedPort()}`;
    return { vars: { GOOGLE_ISSUER: downIssuer, GOOGLE_CLIENT_ID: "portal-google", GOOGLE_CLIENT_SECRET: "google-secret" } };
  });

  it("start for the provider that is not configured: JSON 404 not_configured, form 303 /login?error=not_configured", async () => {
    const json = await startRequest("microsoft", { mode: "popup", on: partial() });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ code: "not_configured", message: SIGN_IN_FAILURES.not_configured });
    expect(setCookies(json)).toEqual({ pp_session: CLEARED_SESSION });
    expect(await auditOf(json, partial())).toEqual([
      { action: "auth.sign_in.failed", actor_id: null, business_id: null, entity_id: null, after: { channel: "microsoft", code: "not_configured" } },
    ]);

    const form = await startRequest("microsoft", { json: false, on: partial() });
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/login?error=not_configured");
    expect(setCookies(form).pp_oidc).toBeUndefined();
  });

  it("start for an unreachable issuer: JSON 502 unreachable with SPEC's generic message, form 303 /login?error=unreachable", async () => {
    const json = await startRequest("google", { mode: "popup", on: partial() });
    expect(json.status).toBe(502);
    expect(await json.json()).toEqual({ code: "unreachable", message: GENERIC });
    expect(setCookies(json).pp_oidc).toBeUndefined();
    expect(await auditOf(json, partial())).toEqual([
      expect.objectContaining({ action: "auth.sign_in.failed", after: { channel: "google", code: "unreachable" } }),
    ]);

    const form = await startRequest("google", { json: false, on: partial() });
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/login?error=unreachable");
  });

  it("/login: the work account is not configured, Google is offered; form-action names only Google's origin", async () => {
    const response = await partial().fetch("/login");
    const text = textOf(await response.text());
    expect(text).toContain("Work account sign-in is not configured");
    expect(text).not.toContain("Sign in with work account");
    expect(text).toContain("Sign in with Google");
    expect(text).not.toContain("Google sign-in is not configured");
    expect(formActionOf(response)).toEqual(["'self'", downIssuer]);
  });
});

describe("a portal without the sign-in providers' vars", () => {
  const bare = usePortal();

  it("/login says both are not configured, keeps the email channel, and form-action is 'self' alone", async () => {
    const response = await bare().fetch("/login");
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    expect(text).toContain("Work account sign-in is not configured");
    expect(text).toContain("Google sign-in is not configured");
    expect(text).not.toContain("Sign in with work account");
    expect(text).not.toContain("Sign in with Google");
    expect(text).toContain("Sign in with your email");
    expect(html).not.toContain("/auth/oidc/");
    expect(formActionOf(response)).toEqual(["'self'"]);
    expect(loaderDataOf(html)["routes/login"]).toEqual({ configured: { microsoft: false, google: false }, popupSize: null, error: null, ended: null });
  });

  it("both starts answer not_configured", async () => {
    for (const provider of ["microsoft", "google"]) {
      const response = await startRequest(provider, { mode: "popup", on: bare() });
      expect(response.status, provider).toBe(404);
      expect(await response.json()).toMatchObject({ code: "not_configured" });
    }
  });
});
