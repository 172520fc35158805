// GET /merchants/export: the whole filtered merchant list as CSV (the list's
// own URL parameters), streamed page by page.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "#server/plumbing/csv";
import { listMerchants, type Merchant } from "#server/merchants/merchants.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { requireExport } from "#server/guards";
import { listParams } from "#app/lib/lists/list-params";
import { readMerchantSearch } from "#app/lib/merchant-search";
import { formatPathLike } from "#app/lib/format";
import { asShown } from "#app/lib/lists/shown-columns";
import { MERCHANT_LIST_PARAMS } from "./list.route";
import { utcDay } from "#server/plumbing/time";
import { MERCHANT_COLUMNS, merchantColumnValue, type MerchantColumn } from "#server/merchants/merchant-columns";

const HEADERS = {
  code: "Code",
  name: "Name",
  trading_name: "Trading name",
  tin: "TIN",
  sector: "Sector",
  town: "Town",
  region: "Region",
  address: "Address",
  contact_name: "Contact name",
  contact_phone: "Contact phone",
  contact_email: "Contact email",
} satisfies Record<MerchantColumn, string>;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireExport(request, context, "view:merchant", "export:merchant");
  const { filters } = listParams(new URL(request.url), MERCHANT_LIST_PARAMS);
  const query = {
    ...readMerchantSearch(filters.q),
    status: filters.status,
    sector: filters.sector,
    region: filters.region,
    sort: filters.sort,
    limit: MAX_PAGE_SIZE,
  };
  // As the list shows them: the sector by SPEC 5's path rule, every text with SPEC 9's brand word replaced.
  const columns = asShown<Merchant>([
    ...MERCHANT_COLUMNS.map((column) => ({
      header: HEADERS[column],
      value: (m: Merchant) => (column === "sector" ? formatPathLike(m.sector) : merchantColumnValue(m, column)),
    })),
    { header: "Status", value: (m) => m.status },
    { header: "Added (UTC)", value: (m) => m.createdAt },
  ]);
  return csvResponse(`merchants-${utcDay(Date.now())}.csv`, columns, (after) => listMerchants(tenant, { ...query, after }));
}
