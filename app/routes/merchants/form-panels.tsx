// The merchant page's forms (the merchant's change or deactivation, a settlement account's): loaded on demand by
// ./form-code, outside the page's first load (decision 043).
export { MerchantFormCard, SettlementAccountForm } from "./merchant-form";
