// POST /logout: the session is revoked and its cookie cleared (every SPEC
// section 4 field at once); the person lands on their channel's sign-in page.
// The return-URL cookie is left as it is: SPEC section 4 does not list the
// return URL among what logout clears, so a later visit still finds it.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { authDeps } from "#server/auth/deps";
import { checkSession, requireSession } from "#server/auth/guards";
import { requireSameOrigin } from "#server/auth/origin";
import { logout } from "#server/auth/sign-in";
import { methodNotAllowed, notFound } from "#server/plumbing/http";

export async function action({ request, context }: ActionFunctionArgs) {
  // The sign-out form posts; a PUT, PATCH or DELETE (which Remix also hands an action) is not that form and signs no one out.
  if (request.method !== "POST") return methodNotAllowed();
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const check = await checkSession(request, deps);
  const { setCookie } = await logout(request, deps);
  return redirect(check.ok ? check.session.returnUrl : check.returnUrl, { headers: { "Set-Cookie": setCookie } });
}

// Signing out changes state, so only the form's POST does it.
export async function loader({ request, context }: LoaderFunctionArgs): Promise<Response> {
  await requireSession(request, authDeps(request, context));
  return notFound(request);
}
