// /platform/requests/:id: one platform request, what it would do, who asked and when, and the decision: a second
// Platform Administrator approves (the kind's spec applies it) or rejects with a reason, each under a fresh check.
// The decision core holds the rules and the request pages' one action (functions/decisions/request-page.ts) its steps;
// this page says them, in the one request page (app/components/request-page.tsx).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { checkBindings, underPlatformCheck } from "#server/auth/fresh-check";
import { forbidden } from "#server/guards";
import { requirePlatform } from "#server/operators/guards";
import { PLATFORM_SPECS } from "#server/operators/kinds";
import { platformCan } from "#server/operators/roles";
import { decidePlatform, findPlatformRequest } from "#server/operators/requests";
import { decideOnPage, decisionFormValues, refusedDecisionForm } from "#server/decisions/request-page";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { NotFoundError } from "#server/tenancy/tenant";
import { RequestPage } from "#app/components/request-page";
import { isConnectionLost } from "#app/components/forms/submission";
import { DecisionForm } from "#app/lib/decision";
import { proseDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/shell/page";

export const meta: MetaFunction = () => [{ title: "Platform Request" }];
export const handle: PageHandle = { layout: "platform" };

/** The request the URL names, with its kind's spec; anything else is the 404 page. */
async function requestOf(request: Request, core: D1Database, id: string | undefined) {
  try {
    return await findPlatformRequest(core, id ?? "", PLATFORM_SPECS);
  } catch (error) {
    if (error instanceof NotFoundError) pageNotFound(request);
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const { request: found, spec } = await requestOf(request, deps.db, params.id);
  return {
    request: {
      id: found.id,
      title: spec.title(found),
      facts: spec.facts(found),
      status: found.status,
      makerName: found.makerName,
      madeAt: found.madeAt,
      checkerName: found.checkerName,
      decidedAt: found.decidedAt,
      reason: found.reason,
    },
    own: found.makerId === staff.userId,
    mayDecide: platformCan(staff.role, "platform:decide"),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const signedIn = await requirePlatform(request, context, "platform:decide");
  const { request: found, spec } = await requestOf(request, signedIn.deps.db, params.id);
  return decideOnPage(request, context, {
    schema: DecisionForm,
    invalid: refusedDecisionForm,
    before: (form) => {
      // The core refuses it too; saying so here keeps the answer a plain 403 before any check is asked for.
      if (found.makerId === signedIn.staff.userId) forbidden("You made this request, so another Platform Administrator must decide it.");
      return found.status !== "pending" ? refuse({ form: `This request is already ${found.status}.` }, valuesOf(form)) : null;
    },
    underCheck: (form, act) => underPlatformCheck(request, signedIn, checkBindings.platformDecision(found.id), form, act),
    decide: (decision) => decidePlatform({ ...signedIn, context }, found, spec, decision),
    refused: (form, message) => refuse({ form: message }, valuesOf(form)),
    done: (decision) => ({
      to: platformPaths.platformRequests(),
      message: decision.intent === "approve" ? `Approved: ${spec.title(found)}.` : `Rejected: ${found.makerName} can read your reason on the request.`,
    }),
  });
}

const valuesOf = decisionFormValues;

// A refused decision may still have changed the request (another administrator decided it): read it again after every
// post, except after a lost send, where the page stays as it was (app/components/forms/submission.ts).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionResult, defaultShouldRevalidate }) =>
  !isConnectionLost(actionResult) && (formMethod === "POST" || defaultShouldRevalidate);
export { clientAction } from "#app/components/forms/submission";

/** What this page says around the decision. */
const WORDS = {
  heading: "Decision",
  ownNotice: "You made this request, so another Platform Administrator must approve or reject it.",
  whoDecides: "Only a Platform Administrator can approve or reject requests.",
  approveNote: "Approving applies it at once and records you as the checker.",
};

export default function PlatformRequestPage() {
  const { request, own, mayDecide } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <RequestPage
      crumb={{ to: platformPaths.platformRequests(), label: "Platform Requests" }}
      title={request.title}
      lead={`Asked by ${request.makerName}, ${proseDate(request.madeAt)}`}
      status={request.status}
      answer={answer}
      own={own}
      mayDecide={mayDecide}
      makerName={request.makerName}
      words={WORDS}
      decided={request}
    >
      <section className="card" aria-labelledby="facts-title">
        <h2 id="facts-title">What it does</h2>
        <dl className="details">
          {request.facts.map(([label, value]) => (
            <div className="details__row" key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </RequestPage>
  );
}
