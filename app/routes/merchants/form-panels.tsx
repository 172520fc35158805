// The merchant page's forms (the merchant's change or deactivation, a settlement account's fields) and its sections
// below the fold (settlement accounts, recent transactions, change history): loaded by ./form-code, outside the page's first load (decision 043).
export { MerchantFormCard } from "./merchant-form";
export { SettlementAccountFields } from "#app/components/merchant-fields";
export { SettlementAccounts } from "./settlement-accounts";
export { ChangeHistory } from "./history";
export { RecentTransactions } from "#app/components/recent-transactions";
