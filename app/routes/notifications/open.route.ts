// /notifications/:id/open: where a notice's link (the bell's list, an email) leads. Behind sign-in like every page
// (signing in comes back here); the notice is marked read and the person goes on to its record. A notice of someone
// else's, or of another business, is a 404: the id alone opens nothing.
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { openNotice } from "#server/notifications/inbox.db";
import { requireTenant } from "#server/guards";
import { pageNotFound } from "#server/plumbing/http";
import { approvalPath, paths } from "#app/lib/paths";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, null);
  const id = params.id ?? "";
  if (!/^ntf_[0-9a-f]{32}$/.test(id)) pageNotFound(request);
  const notice = await openNotice(tenant, id, deps.now());
  if (!notice) pageNotFound(request);
  throw redirect(noticePath(notice.subjectKind, notice.subjectId));
}

/** The page of a notice's subject: its request, dispute, payout, payment, endpoint, or the profile's security. */
function noticePath(kind: string, id: string): string {
  switch (kind) {
    case "dispute":
      return paths.dispute(id);
    case "settlement":
      return paths.settlement(id);
    case "settlement_run":
      return paths.settlements();
    case "transaction":
      return /^\d+$/.test(id) ? paths.payment(Number(id)) : paths.transactions();
    case "webhook_endpoint":
      return paths.webhookEndpointLog(id);
    case "security":
      return paths.settings();
    case "member":
      return "/";
    case "digest":
      return "/notifications";
    default:
      return approvalPath(kind, id) ?? "/approvals";
  }
}
