// /logos/{businessId}: a business's logo, stored when its onboarding was asked (functions/operators/onboarding.ts).
// Shown to the people of that business (its row's logo_url) and to platform staff (who check it before approving);
// anyone else gets the 404 of an unknown id. The type is the one checked from its bytes, never guessed (nosniff), and
// opened directly it runs nothing.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { authDeps } from "#server/auth/deps";
import { requireTenant } from "#server/guards";
import { signedInStaff } from "#server/operators/guards";
import { LOGO_TYPES, logoKey } from "#server/operators/onboarding";
import { notFound } from "#server/plumbing/http";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const businessId = params.businessId ?? "";
  const staff = await signedInStaff(request, authDeps(request, context));
  if (!staff) {
    const { tenant } = await requireTenant(request, context, null);
    if (tenant.businessId !== businessId) return notFound(request);
  }
  const object = await context.cloudflare.env.EVIDENCE.get(logoKey(businessId));
  const type = object?.httpMetadata?.contentType ?? "";
  if (!object || !(LOGO_TYPES as readonly string[]).includes(type)) return notFound(request);
  return new Response(object.body, {
    headers: {
      "Content-Type": type,
      "Content-Length": String(object.size),
      "X-Content-Type-Options": "nosniff",
      // The people of one business, or staff: no shared cache keeps it.
      "Cache-Control": "private, max-age=300",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
