// The root route's loader: who is signed in, the flash message of the last change, and the environment's name.
import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { authDeps } from "#server/auth/deps";
import { signedInIdentity } from "#server/auth/identity";
import { readFlash } from "#server/plumbing/flash";
import { signedInStaff } from "#server/operators/guards";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  const [{ notice, clearCookie }, identity, staff] = await Promise.all([
    readFlash(request, context.config.app),
    signedInIdentity(request, deps),
    signedInStaff(request, deps),
  ]);
  // Platform staff (decision 039): the platform's shell names them, and a business's shell offers the way back to it.
  const platform = staff ? { name: staff.name, email: staff.email, role: staff.role } : null;
  return data(
    { flash: notice, environment: context.config.app.environment, identity, platform },
    clearCookie ? { headers: { "Set-Cookie": clearCookie } } : undefined,
  );
}
