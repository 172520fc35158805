import { DAY_MS } from "../plumbing/time";
/** A terminal is silent when in service and not seen for this long (the terminals list, the dashboard, terminal.silent webhooks). */
export const SILENT_AFTER_MS = DAY_MS;
