import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { routeNotFound } from "#server/plumbing/http";
import { requireTenant } from "#server/guards";

// Any path no screen claims. Throwing from the loader (rather than rendering)
// gives the 404 status and the root error boundary's Page Not Found page.
// Only signed-in people learn that a path does not exist; everyone else signs in first.
export async function loader({ request, context }: LoaderFunctionArgs): Promise<never> {
  await requireTenant(request, context, null);
  routeNotFound(request);
}

export const action = loader;

export default function NotFound() {
  return null;
}
