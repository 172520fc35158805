// What each kind of business change request adds to the generic steps of making (approvals.db.ts), reading
// (change-requests.db.ts) and deciding (change-decision.db.ts) it, beside its spec (change-kinds.ts SPECS): a kind
// with steps has its one entry here, and the engine calls them without naming a kind.
import { SETTLEMENT_ACCOUNT_STEPS, type ChangeSteps } from "./apply-change.db";
import type { ApprovalKind } from "./change-kinds";
import { EMPLOYEE_STEPS } from "./employee-change.db";
import { TERMINAL_ASSIGNMENT_STEPS } from "./terminal-assignment.db";

export const STEPS: Partial<Record<ApprovalKind, ChangeSteps>> = {
  employee: EMPLOYEE_STEPS,
  settlement_account: SETTLEMENT_ACCOUNT_STEPS,
  terminal: TERMINAL_ASSIGNMENT_STEPS,
};
