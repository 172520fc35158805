// Asking for a terminal's assignment to a point of sale: a change request of kind 'terminal' (its steps and why are
// terminal-assignment.db.ts's), made through the one engine's requestChange.
import { NotFoundError, RuleError, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { getTerminal, TerminalChangedError } from "../merchants/terminals.db";
import { requestChange } from "./approvals.db";
import { activePlace, NOT_ACTIVE } from "./terminal-assignment.db";

/** Asks for the terminal to stand at the point of sale; returns the request's id. Nothing moves until another person approves. */
export async function requestTerminalAssignment(
  tenant: Tenant,
  meta: RequestMeta,
  change: { terminalId: string; version: number; pointOfSaleId: string },
): Promise<string> {
  const terminal = await getTerminal(tenant, change.terminalId);
  if (!terminal) throw new NotFoundError("Terminal");
  if (terminal.version !== change.version) throw new TerminalChangedError();
  if (terminal.status !== "in_stock") throw new RuleError("Only a terminal in stock can be assigned. Unassign it first.");
  const place = await activePlace(tenant, change.pointOfSaleId);
  if (!place) throw new NotFoundError("Point of sale");
  if (place === "inactive") throw new RuleError(NOT_ACTIVE);
  return requestChange(tenant, meta, {
    kind: "terminal",
    action: "update",
    targetId: terminal.id,
    after: { status: "assigned", merchant_id: place.merchantId, point_of_sale_id: place.id },
  });
}
