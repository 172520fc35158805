// /disputes/{disputeId}/evidence/{evidenceId}: one evidence file back, only to a person of the business whose
// dispute it is (any other: 404, as an unknown id). Always a download: the type is the one checked from its bytes
// when it was attached, never guessed by the browser (nosniff), and it never opens as a page of the portal.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getEvidence } from "#server/disputes/disputes.db";
import { contentDisposition } from "#server/disputes/evidence-download";
import type { EvidenceType } from "#server/disputes/evidence";
import { requireTenant } from "#server/guards";
import { notFound } from "#server/plumbing/http";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:dispute");
  const evidence = await getEvidence(tenant, params.disputeId ?? "", params.evidenceId ?? "");
  if (!evidence) return notFound(request);
  const object = await context.cloudflare.env.EVIDENCE.get(evidence.r2Key);
  if (!object) return notFound(request);
  const type = evidence.contentType as EvidenceType;
  return new Response(object.body, {
    headers: {
      "Content-Type": type,
      "Content-Length": String(object.size),
      "Content-Disposition": contentDisposition(evidence.fileName, type),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      // Opened directly anyway, it runs nothing.
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
