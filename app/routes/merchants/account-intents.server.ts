// The merchant page's requests about its settlement accounts: adding one,
// changing one and deactivating one, each sent for another person to approve.
import { formErrors } from "#server/forms";
import * as v from "valibot";
import { requestChange } from "#server/approvals/approvals.db";
import { getSettlementAccount, settlementAccountClashes, type SettlementAccount } from "#server/settlement/settlement-accounts.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { ACCOUNT_FIELDS, accountValues, changedOnly, formFields, SENT_FOR_APPROVAL, SettlementAccountForm } from "./merchant-forms";
import type { IntentArgs, Refused } from "./merchant-intents.server";

export const ACCOUNT_INTENTS = ["add-account", "update-account", "deactivate-account"] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

const AccountId = v.pipe(v.string("Say which account."), v.nonEmpty("Say which account."), v.maxLength(80));
const CLASH = "This merchant already has this account, or a pending request would add it.";

/** The posted account, when it is this merchant's; another merchant's, or another business's, is not found from here. */
async function postedAccount({ request, tenant, merchant, form }: IntentArgs): Promise<SettlementAccount> {
  const id = v.safeParse(AccountId, form.accountId);
  const account = id.success ? await getSettlementAccount(tenant, id.output) : null;
  if (!account || account.merchantId !== merchant.id) pageNotFound(request);
  return account;
}

/** A refusal, or a thrown redirect to the merchant page with the flash. */
export async function accountIntent(args: IntentArgs, intent: AccountIntent): Promise<Refused> {
  const { request, context, deps, tenant, merchant, form, values, here } = args;
  if (intent === "add-account") {
    if (merchant.status !== "active") return refuse({ form: "An inactive merchant cannot get a new settlement account." }, values, intent);
    const parsed = v.safeParse(SettlementAccountForm, formFields(form, ACCOUNT_FIELDS));
    if (!parsed.success) return refuse(formErrors(parsed.issues), values, intent);
    const wanted = parsed.output;
    const clash = await settlementAccountClashes(tenant, {
      merchantId: merchant.id,
      kind: wanted.kind,
      provider: wanted.provider,
      accountNumber: wanted.account_number,
    });
    if (clash) return refuse({ account_number: CLASH }, values, intent);
    await requestChange(tenant, deps.meta, { kind: "settlement_account", action: "create", after: { merchant_id: merchant.id, ...wanted } });
    throw await redirectWithFlash(request, context.config.app, here, { kind: "success", message: `The new settlement account: ${SENT_FOR_APPROVAL}` });
  }

  const account = await postedAccount(args);
  if (intent === "deactivate-account") {
    await requestChange(tenant, deps.meta, { kind: "settlement_account", action: "deactivate", targetId: account.id });
    throw await redirectWithFlash(request, context.config.app, here, { kind: "success", message: `Deactivating the settlement account: ${SENT_FOR_APPROVAL}` });
  }

  if (merchant.status !== "active") return refuse({ form: "The settlement accounts of an inactive merchant cannot change." }, values, intent);
  const parsed = v.safeParse(SettlementAccountForm, formFields(form, ACCOUNT_FIELDS));
  if (!parsed.success) return refuse(formErrors(parsed.issues), values, intent);
  const wanted = parsed.output;
  const after = changedOnly(wanted, accountValues(account));
  if (Object.keys(after).length === 0) return refuse({ form: "Nothing would change: edit a field first." }, values, intent);
  const moved = after.provider !== undefined || after.account_number !== undefined;
  if (
    moved &&
    (await settlementAccountClashes(
      tenant,
      { merchantId: merchant.id, kind: wanted.kind, provider: wanted.provider, accountNumber: wanted.account_number },
      account.id,
    ))
  ) {
    return refuse({ account_number: CLASH }, values, intent);
  }
  await requestChange(tenant, deps.meta, { kind: "settlement_account", action: "update", targetId: account.id, after });
  throw await redirectWithFlash(request, context.config.app, here, { kind: "success", message: `The change to the settlement account: ${SENT_FOR_APPROVAL}` });
}
