// The merchants a form or a filter offers: at most MERCHANT_CHOICES, narrowed by
// what was typed (MerchantFinder), so each merchant of a large business can be
// reached; the one already chosen is always among them, wherever it sorts.
import { listMerchantChoices } from "#server/merchants/merchants.db";
import { namesOf } from "#server/lists/names.db";
import type { Tenant } from "#server/tenancy/tenant";
import type { MerchantStatus } from "#server/merchants/merchants.db";
import * as v from "valibot";
import { searchParam } from "#app/lib/lists/list-params";
import { readMerchantSearch } from "./merchant-search";

export const MERCHANT_CHOICES = 500;
export async function merchantChoices(
  tenant: Tenant,
  query: { typed?: string | null; selected?: string; status?: MerchantStatus; exceptId?: string },
): Promise<{ choices: { id: string; name: string }[]; more: boolean }> {
  const typed = v.safeParse(searchParam, query.typed ?? undefined);
  const found = await listMerchantChoices(tenant, {
    limit: MERCHANT_CHOICES + 1,
    status: query.status,
    exceptId: query.exceptId,
    ...readMerchantSearch(typed.success ? typed.output : undefined),
  });
  const more = found.length > MERCHANT_CHOICES;
  const choices = found.slice(0, MERCHANT_CHOICES);
  if (query.selected && query.selected !== query.exceptId && !choices.some((m) => m.id === query.selected)) {
    const name = (await namesOf(tenant, "merchant", [query.selected])).get(query.selected);
    if (name) choices.unshift({ id: query.selected, name });
  }
  return { choices, more };
}
