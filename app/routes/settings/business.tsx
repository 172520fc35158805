// The Business tab of /settings: the business profile the person works in (SPEC section 3).
import { Details } from "../../components/details";
import { formatPathLike } from "../../lib/format";
import type { loadBusiness } from "./account.server";

export function BusinessTab({ business }: { business: Awaited<ReturnType<typeof loadBusiness>> }) {
  return (
    <section className="card" aria-labelledby="business-title">
      <h2 id="business-title">Business profile</h2>
      <Details
        rows={[
          ["Business name", business.businessName],
          ["Business identifier", business.businessIdentifier],
          ["Contact number", business.contactNumber],
          ["Contact email", business.contactEmail],
          ["Town", business.town],
          ["Region", business.region],
          ["Sector", formatPathLike(business.sector)],
          ["Your access level", business.accessLevel],
        ]}
      />
    </section>
  );
}
