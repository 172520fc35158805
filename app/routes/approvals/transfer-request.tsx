// A transfer request's section of the money request page: from, to, the amount, the asker's narration and the available
// balance now.
import { Details } from "#app/components/details";
import { formatAmount } from "#app/lib/format";
import { decisionRows, type ShownRequest } from "./money-request";

/** What the page shows of a transfer (money-request.server.ts reads it). */
export interface TransferFacts {
  transfer: { from: string; to: string; toKind: string; amount: number; narration: string | null; fromMerchantId: string };
  /** The merchant's available balance now, in pesewas. */
  available: number;
}

export function TransferSection({ request, transfer, available }: TransferFacts & { request: ShownRequest }) {
  return (
    <section className="card" aria-labelledby="transfer-heading">
      <h2 id="transfer-heading">The transfer</h2>
      <Details
        rows={[
          ["From (merchant account)", transfer.from],
          [`To (${transfer.toKind.toLowerCase()})`, transfer.to],
          ["Amount (GHS)", formatAmount(transfer.amount)],
          ["Narration", transfer.narration ?? "None given"],
          ["Available now (GHS)", formatAmount(available)],
          ...decisionRows(request, "Reason"),
        ]}
      />
      {request.status === "pending" && transfer.amount > available ? (
        <p className="notice notice--warning notice__message">The amount is now above the available balance: approving it will be refused.</p>
      ) : null}
    </section>
  );
}
