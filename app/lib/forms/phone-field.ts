// The form field for a Ghana phone number (valibot), on the rule of ./phone: apart from it so that valibot stays out of
// the pages that only show a number (decision 043).
import * as v from "valibot";
import { ghanaMsisdn, PHONE_MESSAGE } from "./phone";

/**
 * A form field for a Ghana phone number: `missing` when it is left empty,
 * PHONE_MESSAGE when it is not a Ghana number; its output is 233XXXXXXXXX.
 */
export function ghanaPhoneField(missing: string) {
  return v.pipe(
    v.string(missing),
    v.trim(),
    v.nonEmpty(missing),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const msisdn = ghanaMsisdn(dataset.value);
      if (msisdn) return msisdn;
      addIssue({ message: PHONE_MESSAGE });
      return NEVER;
    }),
  );
}
