// /platform/businesses/:businessId/lifecycle: a business's standing with the platform, and the requests that change it
// (decision 039). A Platform Administrator asks to suspend, reactivate or close it, saying why; nothing changes until a
// second administrator approves, and the asker is taken to the request. Staff who may not ask read the standing.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { refusalMessage } from "#server/guards";
import { platformBusiness } from "#server/operators/businesses.db";
import { requirePlatform } from "#server/operators/guards";
import { PLATFORM_SPECS } from "#server/operators/kinds";
import { lifecycleRefusal, type LifecycleKind } from "#server/operators/lifecycle";
import { askPlatform } from "#server/operators/requests";
import { waitingFor } from "#server/operators/requests.db";
import { platformCan } from "#server/operators/roles";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { StatusPill } from "#app/components/status-pill";
import type { PageHandle } from "#app/lib/shell/page";
import { formErrors, readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Business Standing" }];
export const handle: PageHandle = { layout: "platform" };

const KIND_BY_INTENT: Record<string, LifecycleKind> = { suspend: "suspend_business", reactivate: "reactivate_business", close: "close_business" };

const LifecycleForm = v.object({
  intent: v.picklist(["suspend", "reactivate", "close"], "Choose what to do with the business."),
  reason: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.minLength(1, "Say why: the administrator who decides reads it, and the business's audit keeps it."),
    v.maxLength(500, "Keep the reason under 500 characters."),
  ),
});

async function businessOf(request: Request, core: D1Database, id: string | undefined) {
  const business = await platformBusiness(core, id ?? "");
  if (!business) pageNotFound(request);
  return business;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const business = await businessOf(request, deps.db, params.businessId);
  const waiting = (await waitingFor(deps.db, business.id)).flatMap((r) => {
    const spec = PLATFORM_SPECS[r.kind];
    return spec ? [{ id: r.id, kind: r.kind, title: spec.title(r) }] : [];
  });
  return {
    business: { id: business.id, name: business.tradingName ?? business.name, lifecycle: business.lifecycle },
    waiting,
    mayAsk: platformCan(staff.role, "platform:request"),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const maker = await requirePlatform(request, context, "platform:request");
  const business = await businessOf(request, maker.deps.db, params.businessId);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const values = { reason: typeof form.reason === "string" ? form.reason : "" };
  const parsed = v.safeParse(LifecycleForm, form);
  if (!parsed.success) {
    const errors = formErrors(parsed.issues);
    return refuse({ reason: errors.reason ?? errors.intent ?? "Choose what to do with the business." }, values);
  }
  const kind = KIND_BY_INTENT[parsed.output.intent]!;
  const refusal = lifecycleRefusal(kind, business.lifecycle);
  if (refusal) return refuse({ reason: refusal }, values);
  let asked: { id: string; made: boolean };
  try {
    asked = await askPlatform(maker, kind, business.id, {
      businessName: business.tradingName ?? business.name,
      reason: parsed.output.reason,
      from: business.lifecycle,
    });
  } catch (error) {
    return refuse({ reason: refusalMessage(request, error) }, values);
  }
  const message = asked.made ? "Asked: another Platform Administrator decides it." : "A request like this already waits for a decision.";
  throw await redirectWithFlash(request, context.config.app, platformPaths.platformRequest(asked.id), { kind: asked.made ? "success" : "info", message });
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

type Lifecycle = "active" | "suspended" | "closed";

const CHOICES: Record<Lifecycle, readonly { intent: "suspend" | "reactivate" | "close"; label: string; tone: string }[]> = {
  active: [
    { intent: "suspend", label: "Ask to suspend", tone: "button--danger" },
    { intent: "close", label: "Ask to close", tone: "button--ghost" },
  ],
  suspended: [
    { intent: "reactivate", label: "Ask to reactivate", tone: "button--primary" },
    { intent: "close", label: "Ask to close", tone: "button--ghost" },
  ],
  closed: [{ intent: "reactivate", label: "Ask to reactivate", tone: "button--primary" }],
};

const MEANING: Record<Lifecycle, string> = {
  active: "Its people sign in and work; its keys and webhooks run.",
  suspended: "Its people cannot sign in and its own keys are refused; its webhooks and payouts wait. The switch's payments are still recorded.",
  closed: "Read-only: its people can read its records, nothing can be changed. Nothing was deleted.",
};

export default function BusinessStanding() {
  const { business, waiting, mayAsk } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const error = answer && "errors" in answer ? answer.errors.reason : undefined;
  const busy = useSending();
  // A change already waiting is decided on its request, not asked again.
  const choices = CHOICES[business.lifecycle].filter((choice) => !waiting.some((request) => request.kind === KIND_BY_INTENT[choice.intent]));
  return (
    <div className="page">
      <header className="page__header">
        <p className="page__crumb">
          <Link to={platformPaths.platform()}>Platform</Link> › <Link to={platformPaths.platformBusiness(business.id)}>{business.name}</Link>
        </p>
        <h1>{business.name}</h1>
        <p className="page__lead">Its standing with the platform, and the requests that change it.</p>
      </header>
      <section className="card" aria-labelledby="standing-title">
        <h2 id="standing-title">Standing</h2>
        <p>
          <StatusPill entity="business" status={business.lifecycle} /> {MEANING[business.lifecycle]}
        </p>
        {waiting.length > 0 ? (
          <ul aria-label="Requests waiting for a decision">
            {waiting.map((request) => (
              <li key={request.id}>
                <Link to={platformPaths.platformRequest(request.id)}>{request.title}</Link>: waits for a decision.
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {mayAsk && choices.length > 0 ? (
        <section className="card" aria-labelledby="change-title">
          <h2 id="change-title">Ask for a change</h2>
          <p className="card__lead">Another Platform Administrator approves or rejects it; the business's administrators are told by text message.</p>
          <Form method="post" className="form" noValidate>
            <Field id="reason" label="Why" hint="The administrator who decides reads it; the business's audit keeps it." error={error}>
              <textarea
                id="reason"
                name="reason"
                rows={3}
                maxLength={500}
                required
                defaultValue={answer?.values?.reason ?? ""}
                {...describedBy("reason", error, true)}
              />
            </Field>
            <div className="form__actions">
              {choices.map((choice) => (
                <button key={choice.intent} type="submit" name="intent" value={choice.intent} className={`button ${choice.tone}`} disabled={busy}>
                  {choice.label}
                </button>
              ))}
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
