// The POS terminal's columns, for the fleet list, the merchant page and the
// point-of-sale page (each picks its own).
import { Link } from "@remix-run/react";
import type { Terminal } from "#server/merchants/terminals.db";
import { tableDate } from "../../lib/format";
import { paths } from "../../lib/paths";
import { StatusPill } from "../status-pill";
import { pickColumns } from "./pick";

type T<K extends keyof Terminal> = Pick<Terminal, K>;

const TERMINAL_COLUMNS = {
  serial: {
    header: "Serial number",
    cell: (t: T<"id" | "serial" | "model">) => (
      <Link to={paths.device(t.id)} className="cell-title">
        <strong>{t.serial}</strong>
        <span className="cell-sub">{t.model}</span>
      </Link>
    ),
  },
  status: { header: "Status", cell: (t: T<"status">) => <StatusPill entity="terminal" status={t.status} /> },
  merchant: {
    header: "Merchant",
    cell: (t: T<"merchantId"> & { merchantName: string | null }) =>
      t.merchantId && t.merchantName ? <Link to={paths.merchant(t.merchantId)}>{t.merchantName}</Link> : <span className="cell-sub">Not assigned</span>,
  },
  pos: {
    header: "Point of sale",
    cell: (t: T<"merchantId" | "pointOfSaleId"> & { pointOfSaleName: string | null }) =>
      t.merchantId && t.pointOfSaleId && t.pointOfSaleName ? (
        <Link to={paths.pointOfSale(t.merchantId, t.pointOfSaleId)}>{t.pointOfSaleName}</Link>
      ) : (
        <span className="cell-sub">None</span>
      ),
  },
  seen: { header: "Last seen", cell: (t: T<"lastSeenAt">) => (t.lastSeenAt === null ? "Never" : tableDate(t.lastSeenAt)) },
  software: { header: "Software", cell: (t: T<"softwareVersion">) => t.softwareVersion },
};

export type TerminalColumn = keyof typeof TERMINAL_COLUMNS;

export const terminalColumns = <Id extends TerminalColumn>(ids: readonly Id[]) => pickColumns(TERMINAL_COLUMNS, ids);
