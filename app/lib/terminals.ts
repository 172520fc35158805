// How terminal statuses read on screen, shared by the fleet list, the device
// page and the point-of-sale page.
import type { TerminalStatus } from "../../functions/data/terminals";

export const TERMINAL_STATUS_LABEL: Record<TerminalStatus, string> = {
  in_stock: "In stock",
  assigned: "Assigned",
  active: "Active",
  blocked: "Blocked",
  faulty: "Faulty",
  retired: "Retired",
};

export function terminalStatusClass(status: TerminalStatus): string {
  if (status === "active") return "status status--good";
  if (status === "blocked" || status === "faulty") return "status status--bad";
  if (status === "assigned") return "status status--wait";
  return "status";
}

/** A terminal is silent when in service and not seen for this long. */
export const SILENT_AFTER_MS = 24 * 60 * 60 * 1000;
