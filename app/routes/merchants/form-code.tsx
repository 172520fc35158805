// The merchant page's forms are shown only once the URL or a refusal opens one (./ui openForm); their code (the fields,
// the region list) is loaded apart from the page's first load (app/components/code-on-demand.tsx, decision 043). The
// route's loader awaits it (always: the server has it at once), so the server renders an open form whole; the browser
// loads it before hydrating a document that shows one (entry.client), and otherwise once the page is idle, before a
// click needs it.
import type { ComponentProps } from "react";
import { codeOnDemand, loadWhenIdle, OnDemand } from "#app/components/code-on-demand";
import type { MerchantFormCard as Card, SettlementAccountForm as AccountForm } from "./merchant-form";

export const formCode = codeOnDemand("merchant-forms", () => import("./form-panels"));

loadWhenIdle(formCode);

const loading = <p aria-live="polite">Loading…</p>;

function CardNow(props: ComponentProps<typeof Card>) {
  const { MerchantFormCard: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

function AccountFormNow(props: ComponentProps<typeof AccountForm>) {
  const { SettlementAccountForm: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

export function MerchantFormCard(props: ComponentProps<typeof Card>) {
  return (
    <OnDemand code={formCode} fallback={loading}>
      <CardNow {...props} />
    </OnDemand>
  );
}

export function SettlementAccountForm(props: ComponentProps<typeof AccountForm>) {
  return (
    <OnDemand code={formCode} fallback={loading}>
      <AccountFormNow {...props} />
    </OnDemand>
  );
}
