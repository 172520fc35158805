// What /transactions shows only for one payment (the detail panel of ?tx=, a payment found in an archived month) and
// only once months are archived (their list): loaded
// on demand by the list route (app/components/code-on-demand.tsx, decision 043).
export { PaymentDetailPanel } from "./payment-detail";
export { ArchivedPayment } from "./archived-payment";
export { ArchivedInPeriod, ArchivedMonths } from "./archived-months";
