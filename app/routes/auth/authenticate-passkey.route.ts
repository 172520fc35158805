// POST /authenticate/passkey: the passkey ceremonies' JSON calls (decision 024). Signing in (an identified session,
// on /authenticate) asks for options, then sends the answer; adding a passkey (a verified session, Settings >
// Security) does the same with its name. Every call counts against the passkey limits per account and per address
// (functions/auth/limits.ts) and is answered 429 with Retry-After past them.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { authDeps, type AuthDeps } from "#server/auth/deps";
import { requireIdentified, requireVerified } from "#server/auth/guards";
import { authLimited, PASSKEY_LIMITS, tooManyJson } from "#server/auth/limits";
import { requireSameOrigin } from "#server/auth/origin";
import { PasskeyName, PASSKEY_MESSAGES } from "#server/passkeys/passkeys";
import { signInOptions, verifySignIn } from "#server/passkeys/passkey-assertions";
import { registrationOptions, verifyRegistration } from "#server/passkeys/passkey-registration";
import type { SessionData } from "#server/auth/session";
import { jsonResponse, methodNotAllowed, readBodyUpTo } from "#server/plumbing/http";
import { checkBindings, checkNeededJson, giveBackCheck, hasOpenCheck, spendOpenCheck } from "#server/auth/fresh-check";

export function loader() {
  return methodNotAllowed();
}

const Call = v.variant("intent", [
  v.object({ intent: v.literal("sign-in-options") }),
  v.object({ intent: v.literal("sign-in"), response: v.unknown() }),
  // The name is checked before the authenticator is asked, so a name that does not do never costs a passkey prompt.
  v.object({ intent: v.literal("register-options"), name: PasskeyName }),
  v.object({ intent: v.literal("register"), name: PasskeyName, response: v.unknown() }),
]);

const MAX_BODY = 64 * 1024;

/** The guard's redirect (no session, or not at this stage) as JSON: the page decides where to go. */
async function guarded(make: () => Promise<SessionData>): Promise<SessionData | Response> {
  try {
    return await make();
  } catch (thrown) {
    if (thrown instanceof Response) return jsonResponse({ message: PASSKEY_MESSAGES.notIdentified, location: thrown.headers.get("Location") }, 401);
    throw thrown;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps: AuthDeps = authDeps(request, context);
  // Read only up to the limit: a body of megabytes is refused at its 64th kilobyte, not held whole first.
  const bytes = await readBodyUpTo(request, MAX_BODY);
  if (bytes === null) return jsonResponse({ message: PASSKEY_MESSAGES.malformed }, 413);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return jsonResponse({ message: PASSKEY_MESSAGES.malformed }, 400);
  }
  const parsed = v.safeParse(Call, body);
  if (!parsed.success) return jsonResponse({ message: parsed.issues[0].message }, 400);
  const call = parsed.output;
  const signingIn = call.intent === "sign-in-options" || call.intent === "sign-in";
  const session = await guarded(() => (signingIn ? requireIdentified(request, deps) : requireVerified(request, deps)));
  if (session instanceof Response) return session;
  const wait = await authLimited(deps.db, request, PASSKEY_LIMITS, session.sub, deps.now());
  if (wait !== null) return tooManyJson(wait);
  switch (call.intent) {
    case "sign-in-options": {
      const options = await signInOptions(deps, session);
      return options ? jsonResponse({ options }) : jsonResponse({ message: PASSKEY_MESSAGES.unknown }, 404);
    }
    case "sign-in": {
      const signedIn = await verifySignIn(request, deps, session, call.response);
      if (!signedIn.ok) return jsonResponse({ message: signedIn.message }, 400);
      return jsonResponse({ location: "/select-business" }, 200, { "Set-Cookie": signedIn.setCookie });
    }
    // A passkey passes every later fresh check, so adding one needs a check by what the person already has (a
    // passkey, or a code): someone holding only a stolen session cannot add their own (decision 027).
    case "register-options": {
      if (!(await hasOpenCheck(deps, session, checkBindings.addPasskey()))) return checkNeededJson(checkBindings.addPasskey());
      const options = await registrationOptions(deps, session);
      return "ok" in options ? jsonResponse({ message: options.message }, 400) : jsonResponse({ options });
    }
    case "register": {
      const checkId = await spendOpenCheck(deps, session, checkBindings.addPasskey());
      if (!checkId) return checkNeededJson(checkBindings.addPasskey());
      const added = await verifyRegistration(deps, session, call.name, call.response);
      if (!added.ok) await giveBackCheck(deps, session, checkId);
      return added.ok ? jsonResponse({ passkeyId: added.passkeyId }) : jsonResponse({ message: added.message }, 400);
    }
  }
}
