// A business's standing with the platform and the requests that change it (decision 039): suspend, reactivate or close,
// each with the reason the deciding administrator reads. Posted to the lifecycle route; nothing changes until approved.
import { useFetcher } from "@remix-run/react";
import { describedBy, Field } from "#app/components/form";
import { StatusPill } from "#app/components/status-pill";
import type { action } from "./business-lifecycle.route";

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

export function LifecycleCard({
  businessId,
  lifecycle,
  mayAsk,
  waiting,
}: {
  businessId: string;
  lifecycle: Lifecycle;
  mayAsk: boolean;
  waiting: readonly { id: string; title: string }[];
}) {
  const fetcher = useFetcher<typeof action>();
  const error = fetcher.data && "errors" in fetcher.data ? fetcher.data.errors.reason : undefined;
  const busy = fetcher.state !== "idle";
  return (
    <section className="card" aria-labelledby="lifecycle-title">
      <h2 id="lifecycle-title">Standing with the platform</h2>
      <p>
        <StatusPill entity="business" status={lifecycle} /> {MEANING[lifecycle]}
      </p>
      {waiting.length > 0 ? (
        <ul aria-label="Requests waiting for a decision">
          {waiting.map((request) => (
            <li key={request.id}>
              <a href={`/platform/requests/${request.id}`}>{request.title}</a>: waits for a decision.
            </li>
          ))}
        </ul>
      ) : null}
      {mayAsk ? (
        <fetcher.Form method="post" action={`/platform/businesses/${businessId}/lifecycle`} className="form" noValidate>
          <Field id="lifecycle-reason" label="Why" hint="The administrator who decides reads it; the business's audit keeps it." error={error}>
            <textarea id="lifecycle-reason" name="reason" rows={2} maxLength={500} required {...describedBy("lifecycle-reason", error, true)} />
          </Field>
          <div className="form__actions">
            {CHOICES[lifecycle].map((choice) => (
              <button key={choice.intent} type="submit" name="intent" value={choice.intent} className={`button ${choice.tone}`} disabled={busy}>
                {choice.label}
              </button>
            ))}
          </div>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
