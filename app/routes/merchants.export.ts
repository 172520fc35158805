// GET /merchants/export: the whole filtered merchant list as CSV (the list's
// own URL parameters), streamed page by page.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "#server/platform/csv";
import { listMerchants, type Merchant } from "#server/merchants/merchants.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { listParams } from "../lib/list-params";
import { readMerchantSearch } from "../lib/merchant-search";
import { MERCHANT_LIST_PARAMS } from "./merchants._index";
import { utcDay } from "#server/platform/time";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "export:merchant");
  const { filters } = listParams(new URL(request.url), MERCHANT_LIST_PARAMS);
  const query = {
    ...readMerchantSearch(filters.q),
    status: filters.status,
    sector: filters.sector,
    region: filters.region,
    sort: filters.sort,
    limit: MAX_PAGE_SIZE,
  };
  const columns: { header: string; value: (m: Merchant) => string | number }[] = [
    { header: "Code", value: (m) => m.code },
    { header: "Name", value: (m) => m.name },
    { header: "Trading name", value: (m) => m.tradingName },
    { header: "TIN", value: (m) => m.tin },
    { header: "Sector", value: (m) => m.sector },
    { header: "Town", value: (m) => m.town },
    { header: "Region", value: (m) => m.region },
    { header: "Address", value: (m) => m.address },
    { header: "Contact name", value: (m) => m.contactName },
    { header: "Contact phone", value: (m) => m.contactPhone },
    { header: "Contact email", value: (m) => m.contactEmail },
    { header: "Status", value: (m) => m.status },
    { header: "Added (UTC)", value: (m) => m.createdAt },
  ];
  return csvResponse(`merchants-${utcDay(Date.now())}.csv`, columns, (after) => listMerchants(tenant, { ...query, after }));
}
