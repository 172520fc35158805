import { GHANA_REGIONS } from "#app/lib/forms/ghana";
import { describedBy, Field } from "./form";

/** The Region field of an address: one of Ghana's sixteen regions, its error under it. */
export function RegionSelect({
  id,
  value,
  error,
  placeholderDisabled = false,
}: {
  id: string;
  value: string;
  error?: string | null;
  placeholderDisabled?: boolean;
}) {
  return (
    <Field id={id} label="Region" error={error}>
      <select id={id} name="region" defaultValue={value} required {...describedBy(id, error)}>
        <option value="" disabled={placeholderDisabled}>
          Choose a region
        </option>
        {GHANA_REGIONS.map((region) => (
          <option key={region} value={region}>
            {region}
          </option>
        ))}
      </select>
    </Field>
  );
}
