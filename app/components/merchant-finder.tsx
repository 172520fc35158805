import { Form, useLocation } from "@remix-run/react";

/**
 * A typed merchant name or code that narrows a list of merchants to choose from:
 * a business may have more merchants than one list can hold. A GET form that keeps
 * the page's other parameters (its filters, its page, an open form).
 */
export function MerchantFinder({ param, label, id }: { param: string; label: string; id: string }) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const kept = [...params].filter(([key]) => key !== param);
  return (
    <Form method="get" className="merchant-finder" role="search" preventScrollReset>
      {kept.map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" name={param} defaultValue={params.get(param) ?? ""} placeholder="Merchant name or code" />
      <button type="submit" className="button">
        Find
      </button>
    </Form>
  );
}
