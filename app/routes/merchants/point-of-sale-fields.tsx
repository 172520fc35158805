// The fields of a point of sale, for the add form and the edit form.
import { RegionSelect } from "#app/components/forms/region-select";
import type { PointOfSaleField } from "./point-of-sale-form.server";
import { PHONE_MAX_LENGTH } from "#app/lib/forms/phone";
import { Field, describedBy } from "#app/components/forms/form";

export function PointOfSaleFieldset({
  prefix,
  values,
  errors,
}: {
  prefix: string;
  values: Partial<Record<PointOfSaleField, string>>;
  errors?: Partial<Record<PointOfSaleField, string>>;
}) {
  const id = (field: PointOfSaleField) => `${prefix}-${field}`;
  return (
    <>
      <Field id={id("name")} label="Name" error={errors?.name} hint="As customers know it, e.g. Adum Branch.">
        <input id={id("name")} name="name" required maxLength={80} defaultValue={values.name ?? ""} {...describedBy(id("name"), errors?.name, true)} />
      </Field>
      <div className="form-pair">
        <Field id={id("town")} label="Town" error={errors?.town}>
          <input id={id("town")} name="town" required maxLength={60} defaultValue={values.town ?? ""} {...describedBy(id("town"), errors?.town)} />
        </Field>
        <RegionSelect id={id("region")} value={values.region ?? ""} error={errors?.region} placeholderDisabled />
      </div>
      <Field id={id("address")} label="Address" error={errors?.address} hint="Street, landmark or digital address (GhanaPostGPS).">
        <input
          id={id("address")}
          name="address"
          required
          maxLength={200}
          defaultValue={values.address ?? ""}
          {...describedBy(id("address"), errors?.address, true)}
        />
      </Field>
      <Field id={id("contactPhone")} label="Contact phone" error={errors?.contactPhone} hint="A Ghana number, e.g. 024 412 3456.">
        <input
          id={id("contactPhone")}
          name="contactPhone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          maxLength={PHONE_MAX_LENGTH}
          defaultValue={values.contactPhone ?? ""}
          {...describedBy(id("contactPhone"), errors?.contactPhone, true)}
        />
      </Field>
    </>
  );
}
