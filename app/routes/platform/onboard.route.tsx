// /platform/businesses/new: a Platform Administrator asks to onboard a business, which no one person may do alone. The
// form is checked whole (every field's message at once, what was typed kept), the identifier must be new to the
// platform and to the onboarding requests still waiting, the logo is checked by its bytes; only then is the logo stored
// and the request made. The business exists once another Platform Administrator approves it
// (functions/operators/onboarding.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { refusalMessage } from "#server/guards";
import { requirePlatform } from "#server/operators/guards";
import { askOnboarding, checkLogo, identifierRefusal, MAX_LOGO_BYTES, placementFor, shardChoices, type LogoType } from "#server/operators/onboarding";
import { redirectWithFlash } from "#server/plumbing/flash";
import { formErrors, readForm } from "#server/forms";
import { refuse, type FieldErrors } from "#server/plumbing/http";
import { ErrorSummary, SendButtons, useSending } from "#app/components/forms/form";
import { formFields, typedValues } from "#app/routes/merchants/merchant-forms";
import { businessIdentifierField } from "#app/lib/forms/fields";
import { ONBOARDING_FIELDS, OnboardingForm } from "./onboarding-form";
import type { PageHandle } from "#app/lib/shell/page";
import { BusinessFields, PersonFields, PlacementFields } from "./onboard-fields";

export const meta: MetaFunction = () => [{ title: "Onboard a Business" }];
export const handle: PageHandle = { layout: "platform" };

/** Room for the form's fields and the multipart boundaries around the one file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const LOGO_TOO_LARGE = "The logo is larger than 512 KB. Save it smaller (a logo needs no more than 512 × 512 pixels) and choose it again.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps } = await requirePlatform(request, context, "platform:request");
  return { shards: await shardChoices(context.cloudflare.env, deps.db) };
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  const maker = await requirePlatform(request, context, "platform:request");
  const env = context.cloudflare.env;
  // Refused before the body is read: the Worker would otherwise hold a large upload in memory to refuse it.
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_LOGO_BYTES + FORM_OVERHEAD_BYTES) return refuse({ logo: LOGO_TOO_LARGE }, {});
  const read = await readForm(request, { maxBytes: MAX_LOGO_BYTES + FORM_OVERHEAD_BYTES });
  if (!read.ok) return read.refusal;
  const entries = read.fields;
  const texts = Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const values = typedValues(texts);
  const parsed = v.safeParse(OnboardingForm, formFields(texts, ONBOARDING_FIELDS));
  const errors: FieldErrors = parsed.success ? {} : formErrors(parsed.issues);

  // The rules that read the platform are said along with any other mistake, not one round later.
  const identifier = v.safeParse(businessIdentifierField(), texts.identifier ?? "");
  if (identifier.success) {
    const taken = await identifierRefusal(maker.deps.db, identifier.output);
    if (taken) errors.identifier ??= taken;
  }
  const placement = await placementFor(env, maker.deps.db, parsed.success ? parsed.output.shard : null);
  if ("error" in placement) errors.shard ??= placement.error;
  // workerd gives a File for a file part; the Workers types say string (their pre-2021 default).
  const file: unknown = entries.logo;
  let logo: { file: File; contentType: LogoType } | null = null;
  if (file instanceof File && file.size > 0) {
    const checked = await checkLogo(file);
    if ("error" in checked) errors.logo = checked.error;
    else logo = { file, contentType: checked.contentType };
  }
  if (!parsed.success || "error" in placement || Object.keys(errors).length > 0) return refuse(errors, values);

  let id: string;
  try {
    ({ id } = await askOnboarding(maker, env.EVIDENCE, parsed.output, placement, logo));
  } catch (error) {
    return refuse({ form: refusalMessage(request, error) }, values);
  }
  const name = parsed.output.tradingName ?? parsed.output.name;
  throw await redirectWithFlash(request, context.config.app, platformPaths.platformRequest(id), {
    kind: "success",
    message: `Onboarding ${name} is sent for approval: another Platform Administrator must approve it before the business exists.`,
  });
}

export default function OnboardBusiness() {
  const { shards } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  const errors: Record<string, string> = result?.errors ?? {};
  const values = result?.values ?? {};
  return (
    <div className="page">
      <header className="page__header">
        <h1>Onboard a business</h1>
        <p className="page__lead">
          The request is sent for approval: another Platform Administrator must approve it before the business exists. Its Super Administrator and Administrator
          can then sign in and add its merchants and people.
        </p>
      </header>
      <Form method="post" encType="multipart/form-data" className="form" noValidate key={JSON.stringify(values)}>
        {errors.form ? (
          <ErrorSummary>{errors.form}</ErrorSummary>
        ) : Object.keys(errors).length > 0 ? (
          <ErrorSummary>Some fields need attention: see the messages under them.</ErrorSummary>
        ) : null}
        <section className="card" aria-labelledby="business-title">
          <h2 id="business-title">Business</h2>
          <BusinessFields values={values} errors={errors} />
        </section>
        <section className="card" aria-labelledby="placement-title">
          <h2 id="placement-title">Logo and database</h2>
          <PlacementFields values={values} errors={errors} shards={shards} />
        </section>
        <section className="card" aria-labelledby="people-title">
          <h2 id="people-title">Its first two people</h2>
          <p className="card__lead">
            Every change a business makes is approved by a second person, never by the one who asked: it starts with two who can decide. They sign in through
            the usual channels and invite the rest of its people.
          </p>
          {/* Each person's fields are a group named by its heading: both have a "Full name", an "Email" and a "Mobile number". */}
          <div className="subcard" role="group" aria-labelledby="admin-title">
            <h3 id="admin-title">Super Administrator</h3>
            <PersonFields roleName="Super Administrator" values={values} errors={errors} />
          </div>
          <div className="subcard" role="group" aria-labelledby="second-title">
            <h3 id="second-title">Administrator</h3>
            <p className="card__lead">Approves what the Super Administrator asks for, and the other way round: a different email and mobile number.</p>
            <PersonFields roleName="Administrator" values={values} errors={errors} />
          </div>
        </section>
        <SendButtons busy={busy} cancelTo={platformPaths.platform()} />
      </Form>
    </div>
  );
}
