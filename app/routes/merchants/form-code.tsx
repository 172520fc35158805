// The merchant page's forms (shown once the URL or a refusal opens one, ./ui openForm) and its sections below the fold
// (settlement accounts, recent transactions, change history) are loaded apart from the page's first load (app/components/code-on-demand.ts,
// decision 043). The route's loader awaits them (the server has them at once), so the server renders the page whole; the
// browser starts loading them next to hydration, which keeps the server's HTML of those sections until they are here.
import { Suspense, type ComponentProps } from "react";
import { codeOnDemand } from "#app/components/code-on-demand";
import type { SettlementAccountFields as Fields } from "#app/components/merchant-fields";
import type { MerchantFormCard as Card } from "./merchant-form";
import type { SettlementAccounts as Accounts } from "./settlement-accounts";
import type { ChangeHistory as History } from "./history";
import type { RecentTransactions as Recent } from "#app/components/recent-transactions";

export const formCode = codeOnDemand(() => import("./form-panels"));

if (typeof document !== "undefined") void formCode.preload().catch(() => undefined);

const loading = <p aria-live="polite">Loading…</p>;

function CardNow(props: ComponentProps<typeof Card>) {
  const { MerchantFormCard: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

function FieldsNow(props: ComponentProps<typeof Fields>) {
  const { SettlementAccountFields: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

export function MerchantFormCard(props: ComponentProps<typeof Card>) {
  return (
    <Suspense fallback={loading}>
      <CardNow {...props} />
    </Suspense>
  );
}

export function SettlementAccountFields(props: ComponentProps<typeof Fields>) {
  return (
    <Suspense fallback={loading}>
      <FieldsNow {...props} />
    </Suspense>
  );
}

function AccountsNow(props: ComponentProps<typeof Accounts>) {
  const { SettlementAccounts: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

function HistoryNow(props: ComponentProps<typeof History>) {
  const { ChangeHistory: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

export function SettlementAccounts(props: ComponentProps<typeof Accounts>) {
  return (
    <Suspense fallback={loading}>
      <AccountsNow {...props} />
    </Suspense>
  );
}

export function ChangeHistory(props: ComponentProps<typeof History>) {
  return (
    <Suspense fallback={loading}>
      <HistoryNow {...props} />
    </Suspense>
  );
}

function RecentNow(props: ComponentProps<typeof Recent>) {
  const { RecentTransactions: Loaded } = formCode.read();
  return <Loaded {...props} />;
}

export function RecentTransactions(props: ComponentProps<typeof Recent>) {
  return (
    <Suspense fallback={loading}>
      <RecentNow {...props} />
    </Suspense>
  );
}
