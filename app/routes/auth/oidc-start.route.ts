// POST /auth/oidc/{microsoft|google}/start: begins a work-account or Google
// sign-in. The /login page's script asks for JSON ({ url } to open in the popup,
// or to go to when the popup is blocked); without JavaScript the form post is
// answered with a redirect to the provider (CSP form-action names its origin).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { authDeps, oidcDeps } from "#server/auth/deps";
import { AUTH_LIMITS, addressLimited, tooManyMessage } from "#server/auth/limits";
import { beginOidcSignIn, isOidcProvider } from "#server/oidc/oidc-sign-in";
import { requireSameOrigin } from "#server/auth/origin";
import { SIGN_IN_FAILURES } from "#server/auth/sign-in-messages";
import { setCookieHeaders } from "#server/plumbing/cookies";
import { readFormBody } from "#server/forms";
import { notFound } from "#server/plumbing/http";

const StartForm = v.object({ mode: v.optional(v.picklist(["popup", "redirect"], "Choose popup or redirect."), "redirect") });

function withCookies(cookies: string[]): Headers {
  return setCookieHeaders(cookies, { "Cache-Control": "no-store" });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  if (!isOidcProvider(params.provider)) return notFound(request);
  requireSameOrigin(request);
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  const form = await readFormBody(request);
  if (!(form instanceof FormData)) {
    const headers = { "Cache-Control": "no-store", ...(form.allow ? { Allow: form.allow } : {}) };
    return Response.json({ code: "invalid_request", message: form.message }, { status: form.status, headers });
  }
  const parsed = v.safeParse(StartForm, Object.fromEntries(form));
  if (!parsed.success)
    return Response.json({ code: "invalid_request", message: parsed.issues[0].message }, { status: 400, headers: { "Cache-Control": "no-store" } });
  const deps = authDeps(request, context);
  // No account is known before the provider answers: counted per address here, per account too at the callback.
  const wait = await addressLimited(deps.db, request, AUTH_LIMITS.signInPerAddress, deps.now());
  if (wait !== null) {
    const headers = { "Cache-Control": "no-store", "Retry-After": String(wait) };
    if (!wantsJson) throw redirect("/login?error=too_many", { status: 303, headers });
    return Response.json({ code: "too_many", message: tooManyMessage(wait) }, { status: 429, headers });
  }
  const begun = await beginOidcSignIn(request, deps, oidcDeps(context, deps), params.provider, parsed.output.mode);
  if (!begun.ok) {
    if (!wantsJson) throw redirect(`/login?error=${begun.code}`, { status: 303, headers: withCookies(begun.setCookies) });
    return Response.json({ code: begun.code, message: SIGN_IN_FAILURES[begun.code] }, { status: begun.status, headers: withCookies(begun.setCookies) });
  }
  if (!wantsJson) throw redirect(begun.url, { status: 303, headers: withCookies(begun.setCookies) });
  // A resource route: a plain Response (Remix's data() would drop the cookies here).
  return Response.json({ url: begun.url }, { headers: withCookies(begun.setCookies) });
}

// Only the form post starts a flow; a GET here is a mistyped address.
export function loader({ request }: LoaderFunctionArgs): Response {
  return notFound(request);
}
