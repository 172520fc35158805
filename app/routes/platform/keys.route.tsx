// /platform/keys: the switch's platform keys, so that one switch can act for many businesses without a key of each. A
// platform key acts for the business a Partner API request names in PP-Business, within its scopes
// (docs/partner-api.md). Platform Administrators (platform:keys) make, roll and revoke them here, as a business's
// administrators do their own keys on Settings → Developers, whose parts this screen shares
// (app/components/api-keys.tsx); a new key's secret is shown once, in the action's answer.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requirePlatform } from "#server/operators/guards";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { ConfirmKeyCard, CreateKeyForm, keyColumns, NewKeyPanel } from "#app/components/api-keys";
import { ErrorSummary, useSending } from "#app/components/forms/form";
import type { NewKey } from "#app/lib/api-keys";
import type { PageHandle } from "#app/lib/shell/page";
import { confirmPlatformKey, PLATFORM_KEYS_URL, SCOPE_FIELD_PREFIX } from "./platform-keys";
import { loadPlatformKeys, platformKeysAction, type PlatformKeysData } from "./keys.server";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Platform keys" }];
export const handle: PageHandle = { layout: "platform" };

// A new key's one showing is never cached (the page without JavaScript carries it too).
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const cacheControl = actionHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : new Headers();
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const signedIn = await requirePlatform(request, context, "platform:keys");
  return loadPlatformKeys(request, signedIn, context);
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  const signedIn = await requirePlatform(request, context, "platform:keys");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  return platformKeysAction(request, context, signedIn, read.fields);
}

type KeyRow = PlatformKeysData["keys"][number];

const scopesColumn: Column<KeyRow> = {
  id: "scopes",
  header: "Scopes",
  cell: (k) => (
    <ul className="scope-list" aria-label={`Scopes of ${k.name}`}>
      {k.scopes.map((scope) => (
        <li key={scope}>
          <code>{scope}</code>
        </li>
      ))}
    </ul>
  ),
};
const columns = keyColumns<KeyRow>(confirmPlatformKey, [scopesColumn]);

/** What the action answered, as this page reads it: a refusal (with what was typed) or a new key. */
interface Answer {
  intent?: string;
  errors: Record<string, string>;
  values: { name: string; scopes: string[] } | null;
  newKey?: NewKey;
}

function answerOf(value: unknown): Answer | null {
  return typeof value === "object" && value !== null && ("errors" in value || "newKey" in value) ? (value as Answer) : null;
}

function ScopeFields({ scopes, ticked, error }: { scopes: PlatformKeysData["scopes"]; ticked: readonly string[] | null; error: string | undefined }) {
  return (
    <fieldset className="endpoint-form__events" aria-describedby={error ? "key-scopes-error" : undefined}>
      <legend>Scopes</legend>
      {scopes.map(({ scope, words }) => (
        <label key={scope} className="checkbox">
          <input type="checkbox" name={`${SCOPE_FIELD_PREFIX}${scope}`} value="on" defaultChecked={ticked ? ticked.includes(scope) : scope === "payments"} />
          <code>{scope}</code>: {words}
        </label>
      ))}
      {error ? (
        <p className="field-error" id="key-scopes-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export default function PlatformKeys() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const answer = answerOf(actionData);
  const busy = useSending();
  const named = answer?.intent === "create-key" && !answer.newKey;
  const newKey = answer?.newKey ?? null;
  const prefix = loaded.environment === "production" ? "pp_platform_live_" : "pp_platform_test_";
  return (
    <div className="page">
      <FreshCheck check={checkOf(actionData)} />
      <header className="page__header page__header--actions">
        <div>
          <h1>Platform keys</h1>
          <p className="page__lead">
            The switch&apos;s credential: a platform key (<code>{prefix}</code>…) acts for the business each Partner API request names in its{" "}
            <code>PP-Business</code> header, within the key&apos;s scopes. It still acts for a suspended business, so money that moved is recorded; a closed
            business takes nothing. A key is shown once, when it is made.
          </p>
        </div>
        <a href="#create-key" className="button button--primary">
          Create key
        </a>
      </header>
      {answer && !newKey && !named && answer.errors.form ? <ErrorSummary>{answer.errors.form}</ErrorSummary> : null}
      {newKey ? <NewKeyPanel newKey={newKey} backTo={PLATFORM_KEYS_URL} /> : null}
      {loaded.confirm ? <ConfirmKeyCard confirm={loaded.confirm} busy={busy} action={PLATFORM_KEYS_URL} /> : null}
      <DataTable
        caption="Platform keys"
        columns={columns}
        rows={loaded.keys}
        rowKey={(k) => k.id}
        empty={
          <>
            <h3>No platform keys yet</h3>
            <p>Create one below for the switch to send payments for every business.</p>
          </>
        }
      />
      <CreateKeyForm
        error={named ? answer.errors.name : undefined}
        typed={named ? answer.values?.name : undefined}
        busy={busy}
        resetKey={newKey?.prefix ?? "create"}
        action={PLATFORM_KEYS_URL}
        hint="What uses it, so you can tell keys apart, like “Switch production”."
      >
        <ScopeFields scopes={loaded.scopes} ticked={named ? (answer.values?.scopes ?? null) : null} error={named ? answer.errors.scopes : undefined} />
      </CreateKeyForm>
    </div>
  );
}
