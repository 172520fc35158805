// The merchant page's requests about the merchant itself: a change of its
// details and its deactivation, each sent for another person to approve.
import { formErrors } from "#server/forms";
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { AuthDeps } from "#server/auth/deps";
import { requestChange } from "#server/approvals/approvals.db";
import { merchantClashes, type Merchant } from "#server/merchants/merchants.db";
import type { Tenant } from "#server/tenancy/tenant";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refuse } from "#server/plumbing/http";
import { changedOnly, formFields, MerchantUpdateForm, SENT_FOR_APPROVAL } from "./merchant-forms";
import { MERCHANT_COLUMNS, merchantValues } from "#server/merchants/merchant-columns";

export const MERCHANT_INTENTS = ["update-merchant", "deactivate-merchant"] as const;
export type MerchantIntent = (typeof MERCHANT_INTENTS)[number];

/** What every intent of the merchant page works with, once the guard and the merchant's 404 are past. */
export interface IntentArgs {
  request: Request;
  context: AppLoadContext;
  deps: AuthDeps;
  tenant: Tenant;
  merchant: Merchant;
  form: Record<string, FormDataEntryValue>;
  /** What was typed, for the refused form to show again. */
  values: Record<string, string>;
  /** The merchant page, where every request returns. */
  here: string;
}

export type Refused = ReturnType<typeof refuse<Record<string, string>>>;

/** A refusal, or a thrown redirect to the merchant page with the flash. */
export async function merchantIntent(args: IntentArgs, intent: MerchantIntent): Promise<Refused> {
  const { request, context, deps, tenant, merchant, form, values, here } = args;
  switch (intent) {
    case "update-merchant": {
      const parsed = v.safeParse(MerchantUpdateForm, formFields(form, MERCHANT_COLUMNS));
      if (!parsed.success) return refuse(formErrors(parsed.issues), values, intent);
      const after = changedOnly(parsed.output, merchantValues(merchant));
      if (Object.keys(after).length === 0) return refuse({ form: "Nothing would change: edit a field first." }, values, intent);
      if (typeof after.tin === "string" && (await merchantClashes(tenant, { tin: after.tin }, merchant.id)).tin) {
        return refuse({ tin: "Another merchant already has this TIN, or a pending request would give it one." }, values, intent);
      }
      await requestChange(tenant, deps.meta, { kind: "merchant", action: "update", targetId: merchant.id, after });
      throw await redirectWithFlash(request, context.config.app, here, { kind: "success", message: `The change to ${merchant.name}: ${SENT_FOR_APPROVAL}` });
    }
    case "deactivate-merchant": {
      await requestChange(tenant, deps.meta, { kind: "merchant", action: "deactivate", targetId: merchant.id });
      throw await redirectWithFlash(request, context.config.app, here, { kind: "success", message: `Deactivating ${merchant.name}: ${SENT_FOR_APPROVAL}` });
    }
  }
}
