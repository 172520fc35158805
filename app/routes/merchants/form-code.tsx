// The merchant page's forms (shown once the URL or a refusal opens one, ./ui openForm) and its sections below the fold
// (settlement accounts, recent transactions, change history) are loaded apart from the page's first load
// (app/components/code-on-demand.ts, decision 043). The route's loader awaits them (the server has them at once), so the
// server renders the page whole; the browser starts loading them next to hydration, which keeps the server's HTML of
// those sections until they are here.
import { Suspense, type ComponentProps, type ComponentType, type ReactElement } from "react";
import { codeOnDemand } from "#app/components/code-on-demand";
import type * as Panels from "./form-panels";

export const formCode = codeOnDemand(() => import("./form-panels"));

if (typeof document !== "undefined") void formCode.preload().catch(() => undefined);

const loading = <p aria-live="polite">Loading…</p>;

/** One of form-panels' components, rendered once its code is here (the server's HTML stays until then). */
function onDemand<K extends keyof typeof Panels>(name: K): (props: ComponentProps<(typeof Panels)[K]>) => ReactElement {
  type AnyProps = Record<string, unknown>;
  function Now(props: AnyProps) {
    const Loaded = formCode.read()[name] as unknown as ComponentType<AnyProps>;
    return <Loaded {...props} />;
  }
  return function OnDemand(props) {
    return (
      <Suspense fallback={loading}>
        <Now {...props} />
      </Suspense>
    );
  };
}

export const MerchantFormCard = onDemand("MerchantFormCard");
export const SettlementAccountFields = onDemand("SettlementAccountFields");
export const SettlementAccounts = onDemand("SettlementAccounts");
export const RecentTransactions = onDemand("RecentTransactions");
export const ChangeHistory = onDemand("ChangeHistory");
