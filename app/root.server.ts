// The root route's loader: who is signed in, the flash message of the last change, and the environment's name.
import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { authDeps } from "#server/auth/deps";
import { signedInIdentity } from "#server/auth/identity";
import { readFlash } from "#server/platform/flash";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ notice, clearCookie }, identity] = await Promise.all([
    readFlash(request, context.config.app),
    signedInIdentity(request, authDeps(request, context)),
  ]);
  return data({ flash: notice, environment: context.config.app.environment, identity }, clearCookie ? { headers: { "Set-Cookie": clearCookie } } : undefined);
}
