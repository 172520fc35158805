// /notifications/unsubscribe/:token: an email's "Stop these emails" (decision 053). The token is signed for one
// person, business, kind and channel (functions/notifications/links.ts), so no session is needed: a mail client's
// one-click POST (RFC 8058, `List-Unsubscribe=One-Click`) turns the kind off and is answered 200; a person who opens
// the link sees what it turns off and a button, since a link scanner's GET must change nothing.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { readUnsubscribeToken } from "#server/notifications/links";
import { setPreferences } from "#server/notifications/preferences.db";
import { KIND_NAMES } from "#server/notifications/kinds";
import { businessDb } from "#server/tenancy/shards";
import { readFormBody } from "#server/forms";
import type { PageHandle } from "#app/lib/shell/page";
import { paths } from "#app/lib/paths";

export const meta: MetaFunction = () => [{ title: "Stop these emails" }];
export const handle: PageHandle = { layout: "standard" };

const NOT_A_LINK = "This link is not one the portal sent, or it was cut short. Choose what you get by email in your profile instead.";

async function readToken(token: string | undefined, context: LoaderFunctionArgs["context"]) {
  const what = token ? await readUnsubscribeToken(context.config.app.sessionSecret, token) : null;
  if (!what) throw data({ message: NOT_A_LINK }, { status: 404 });
  return what;
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const what = await readToken(params.token, context);
  return { kindName: KIND_NAMES[what.kind] };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const what = await readToken(params.token, context);
  // RFC 8058's body, or this page's own button: any form, as long as it is one.
  const form = await readFormBody(request, { maxBytes: 4096 });
  if (!(form instanceof FormData)) throw data({ message: form.message }, { status: form.status });
  const business = await businessDb(context.cloudflare.env, what.businessId);
  if (!business) throw data({ message: NOT_A_LINK }, { status: 404 });
  await setPreferences(business, what.userId, [{ kind: what.kind, channel: what.channel, wanted: false }], Date.now());
  return { done: true as const, kindName: KIND_NAMES[what.kind] };
}

export default function Unsubscribe() {
  const { kindName } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>()?.done ?? false;
  return (
    <div>
      <h1>Stop these emails</h1>
      {done ? (
        <p role="status" className="notice notice--success notice__message">
          Done: no more emails for &ldquo;{kindName}&rdquo;. They still show in the portal&apos;s notifications.
        </p>
      ) : (
        <>
          <p>No more emails for &ldquo;{kindName}&rdquo;? They will still show in the portal&apos;s notifications.</p>
          <Form method="post">
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <button type="submit" className="button button--primary button--block">
              Stop these emails
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to={`${paths.settings()}#notifications`}>Choose what you get by email</Link>
      </p>
    </div>
  );
}
