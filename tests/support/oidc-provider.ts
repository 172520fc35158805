// A REAL OpenID provider (the `oidc-provider` package, 8.x) on 127.0.0.1 for the
// sign-in tests: configured like Google (issuer at the origin) or like Microsoft
// Entra ID (issuer `/<tenant id>/v2.0`, a `tid` claim, and a `/common/v2.0`
// discovery document whose issuer is the `{tenantid}` template, as Microsoft's
// common authority publishes it). Its development interactions (login form,
// consent form, abort link) are driven from Node by `authorize` with fetch and a
// small cookie jar.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TestAccount {
  id: string;
  claims: Record<string, unknown>;
}

export interface LocalProvider {
  /** The provider's own issuer (Microsoft-like: the tenant's). */
  issuer: string;
  /** What the portal's env names as issuer (Microsoft-like: the common authority). */
  configuredIssuer: string;
  origin: string;
  /**
   * The next sign-in page the browser reaches ends the interaction with this
   * OAuth error instead (oidc-provider's own interactionFinished), as a provider
   * does when it needs the user elsewhere (`interaction_required`) or refuses.
   */
  failNextInteraction(error: string): void;
  close(): Promise<void>;
}

export interface LocalProviderOptions {
  kind: "google" | "microsoft";
  tenantId?: string;
  clients: TestClient[];
  accounts: TestAccount[];
}

export async function startOidcProvider(options: LocalProviderOptions): Promise<LocalProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenantPath = options.kind === "microsoft" ? `/${options.tenantId ?? "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"}/v2.0` : "";
  const issuer = `${origin}${tenantPath}`;
  const accounts = new Map(options.accounts.map((account) => [account.id, account]));
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      response_types: ["code"],
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "client_secret_post",
    })),
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account.claims }) } : undefined;
    },
    claims: {
      openid: options.kind === "microsoft" ? ["sub", "tid"] : ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username"],
    },
    scopes: ["openid", "offline_access", "User.Read"],
    // Put the scope's claims in the ID token, as Google and Microsoft do.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { IdToken: 3600 },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["oidc-provider-test-cookie-key"] },
  });
  provider.on("server_error", (_ctx, error) => console.error("oidc-provider server_error", error));
  const callback = provider.callback();
  let nextInteractionError: string | null = null;
  handler = (req, res) => {
    const url = req.url ?? "/";
    if (nextInteractionError && req.method === "GET" && url.startsWith(`${tenantPath}/interaction/`)) {
      const error = nextInteractionError;
      nextInteractionError = null;
      Object.assign(req, { originalUrl: url, url: url.slice(tenantPath.length) });
      void provider
        .interactionFinished(req, res, { error, error_description: `test: ${error}` }, { mergeWithLastSubmission: false })
        .catch((failure: unknown) => {
          console.error("oidc-provider interactionFinished", failure);
          res.writeHead(500).end();
        });
      return;
    }
    if (options.kind === "microsoft" && url === "/common/v2.0/.well-known/openid-configuration") {
      void commonDiscovery(issuer).then((body) => res.writeHead(200, { "Content-Type": "application/json" }).end(body));
      return;
    }
    if (!url.startsWith(tenantPath)) {
      res.writeHead(404).end();
      return;
    }
    let inner = url.slice(tenantPath.length) || "/";
    // oidc-provider has no `select_account` prompt; Entra ID's account picker is a
    // fresh sign-in here, so the harness passes it on as `login`.
    if (inner.startsWith("/auth?")) {
      const query = new URLSearchParams(inner.slice("/auth?".length));
      if (query.get("prompt") === "select_account") query.set("prompt", "login");
      inner = `/auth?${query.toString()}`;
    }
    // Mounted under the tenant path: oidc-provider reads the mount from originalUrl.
    Object.assign(req, { originalUrl: `${tenantPath}${inner}`, url: inner });
    callback(req, res);
  };
  return {
    issuer,
    configuredIssuer: options.kind === "microsoft" ? `${origin}/common/v2.0` : issuer,
    origin,
    failNextInteraction: (error) => {
      nextInteractionError = error;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Microsoft's common authority: the tenant's discovery document with the `{tenantid}` issuer template. */
async function commonDiscovery(tenantIssuer: string): Promise<string> {
  const document = await (await fetch(`${tenantIssuer}/.well-known/openid-configuration`)).json<Record<string, unknown>>();
  const template = tenantIssuer.replace(/\/[^/]+\/v2\.0$/, "/{tenantid}/v2.0");
  return JSON.stringify({ ...document, issuer: template });
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type Interaction = { login: string } | "abort" | "none";

/**
 * Follows an authorization URL through the provider like a browser: redirects,
 * the login form (as `login`), the consent form, or the abort link. Returns the
 * URL the provider finally sends the browser to (the portal's redirect URI, with
 * code and state, or an error). `none`: expect no page at all (prompt=none).
 */
export async function authorize(authorizationUrl: string, interaction: Interaction): Promise<URL> {
  const jar = new Map<string, string>();
  const providerOrigin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), Cookie: [...jar].map(([k, val]) => `${k}=${val}`).join("; ") },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      if (value.join("=") === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join("="));
    }
    init = {};
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get("Location")!, url);
      if (next.origin !== providerOrigin) return next;
      url = next.toString();
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status} at ${url}: ${html.slice(0, 500)}`);
    if (interaction === "none") throw new Error(`the provider showed a page at ${url}`);
    if (interaction === "abort") {
      url = `${url.replace(/\/$/, "")}/abort`;
      continue;
    }
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (prompt === "login") {
      init = {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ prompt: "login", login: interaction.login, password: "any" }).toString(),
      };
    } else if (prompt === "consent") {
      init = { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ prompt: "consent" }).toString() };
    } else {
      throw new Error(`unexpected provider page at ${url}: ${html.slice(0, 500)}`);
    }
  }
  throw new Error("too many steps at the provider");
}
