// The merchant page's forms (the merchant's change or deactivation, a settlement account's fields): loaded on demand by
// ./form-code, outside the page's first load (decision 043).
export { MerchantFormCard } from "./merchant-form";
export { SettlementAccountFields } from "./merchant-fields";
