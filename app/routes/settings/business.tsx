// The Business tab of /settings: the business profile the person works in (SPEC section 3), and its security policy
//: whether every decision needs a passkey, changed only through an approval request.
import { Form, Link } from "@remix-run/react";
import { Details } from "#app/components/details";
import { formatPathLike } from "#app/lib/format";
import type { loadBusiness } from "./account.server";
import type { loadPolicy } from "./business.server";
import { ErrorNotice } from "./notice";
import { POLICY_INTENT, SETTINGS_BUSINESS_URL } from "./tabs";
import { useSending } from "#app/components/forms/form";

export function BusinessTab({
  business,
  policy,
  error,
}: {
  business: Awaited<ReturnType<typeof loadBusiness>>;
  policy: Awaited<ReturnType<typeof loadPolicy>>;
  error: string | null;
}) {
  const busy = useSending();
  return (
    <>
      <section className="card" aria-labelledby="business-title">
        <h2 id="business-title">Business profile</h2>
        <Details
          rows={[
            ["Business name", business.businessName],
            ["Business identifier", business.businessIdentifier],
            ["Contact number", business.contactNumber],
            ["Contact email", business.contactEmail],
            ["Town", business.town],
            ["Region", business.region],
            ["Sector", formatPathLike(business.sector)],
            ["Your access level", business.accessLevel],
          ]}
        />
      </section>
      <section className="card" aria-labelledby="policy-title" data-testid="security-policy">
        <h2 id="policy-title">Security policy</h2>
        <ErrorNotice error={error} />
        <Details rows={[["Passkeys for every decision", policy.decisionsNeedPasskey ? "Required" : "Not required"]]} />
        <p className="card__lead">
          {policy.decisionsNeedPasskey
            ? "Approving or rejecting any request needs a passkey check: a code by text message does not do."
            : "Approving or rejecting any request needs a fresh check: a passkey, or else a code by text message."}
        </p>
        {policy.pendingRequestPath ? (
          <p className="notice notice--info notice__message">
            A change is waiting for approval. <Link to={policy.pendingRequestPath}>Open the request</Link>
          </p>
        ) : policy.canAsk ? (
          <Form method="post" action={SETTINGS_BUSINESS_URL}>
            <input type="hidden" name="intent" value={POLICY_INTENT} />
            <input type="hidden" name="decisionsNeedPasskey" value={policy.decisionsNeedPasskey ? "0" : "1"} />
            <p className="field-hint">Another administrator approves the change before it applies.</p>
            <button type="submit" className="button" disabled={busy}>
              {policy.decisionsNeedPasskey ? "Ask to allow codes again" : "Ask to require passkeys for every decision"}
            </button>
          </Form>
        ) : (
          <p className="field-hint">Only a Super Administrator can ask to change it.</p>
        )}
      </section>
    </>
  );
}
