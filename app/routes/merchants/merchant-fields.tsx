// The merchant's fields, shared by /merchants/add-merchant and the Edit form on
// /merchants/:merchantId. Each error sits under its field (app/components/forms/form.tsx).
import { RegionSelect } from "#app/components/forms/region-select";
import { BANKS, MOBILE_NETWORKS, type FieldErrors } from "./merchant-form-values";
import { PHONE_MAX_LENGTH } from "#app/lib/forms/phone";
import { describedBy, Field, TextField, type FieldValues } from "#app/components/forms/form";

type Values = FieldValues;

export function MerchantFields({ values, errors, prefix, withCode }: { values: Values; errors: FieldErrors; prefix: string; withCode: boolean }) {
  const common = { values, errors, prefix };
  const regionId = `${prefix}-region`;
  return (
    <div className="form-grid">
      {withCode ? (
        <TextField {...common} name="code" label="Merchant code" hint="Your own reference, like MRC-0042. It cannot change later." maxLength={20} />
      ) : null}
      <TextField {...common} name="name" label="Registered name" maxLength={120} />
      <TextField {...common} name="trading_name" label="Trading name" maxLength={120} />
      <TextField {...common} name="tin" label="TIN" hint="P, C, G or Q and 10 digits." maxLength={11} />
      <TextField {...common} name="sector" label="Sector" hint="Like Groceries, Pharmacy or Restaurants." maxLength={60} />
      <TextField {...common} name="town" label="Town" maxLength={60} />
      <RegionSelect id={regionId} value={String(values.region ?? "")} error={errors.region} />
      <TextField {...common} name="address" label="Address" hint="Street or plot, area and GhanaPost GPS address." maxLength={200} />
      <TextField {...common} name="contact_name" label="Contact name" autoComplete="off" maxLength={120} />
      <TextField
        {...common}
        name="contact_phone"
        label="Contact phone"
        type="tel"
        inputMode="tel"
        hint="0244123456 or 233244123456."
        maxLength={PHONE_MAX_LENGTH}
      />
      <TextField {...common} name="contact_email" label="Contact email" type="email" inputMode="email" maxLength={254} />
    </div>
  );
}

/** Bank or network, number, name and the primary flag of a settlement account. */
export function SettlementAccountFields({ values, errors, prefix }: { values: Values; errors: FieldErrors; prefix: string }) {
  const providerId = `${prefix}-provider`;
  const primaryId = `${prefix}-is_primary`;
  const primary = values.is_primary === 1 || values.is_primary === "1" || values.is_primary === "on";
  return (
    <div className="form-grid">
      <Field id={providerId} label="Bank or mobile-money network" error={errors.provider}>
        <select id={providerId} name="provider" defaultValue={String(values.provider ?? "")} required {...describedBy(providerId, errors.provider)}>
          <option value="">Choose one</option>
          <optgroup label="Mobile money">
            {MOBILE_NETWORKS.map((network) => (
              <option key={network} value={network}>
                {network}
              </option>
            ))}
          </optgroup>
          <optgroup label="Banks">
            {BANKS.map((bank) => (
              <option key={bank} value={bank}>
                {bank}
              </option>
            ))}
          </optgroup>
        </select>
      </Field>
      <TextField
        values={values}
        errors={errors}
        prefix={prefix}
        name="account_number"
        label="Account or wallet number"
        hint="9 to 12 characters: digits, optionally a hyphen and more digits."
        inputMode="numeric"
        maxLength={16}
      />
      <TextField values={values} errors={errors} prefix={prefix} name="account_name" label="Name on the account" maxLength={120} />
      <div className="field field--check">
        <label htmlFor={primaryId}>
          <input id={primaryId} name="is_primary" type="checkbox" value="on" defaultChecked={primary} {...describedBy(primaryId, errors.is_primary)} /> Primary
          payout account
        </label>
        {errors.is_primary ? (
          <p className="field-error" id={`${primaryId}-error`} role="alert">
            {errors.is_primary}
          </p>
        ) : null}
      </div>
    </div>
  );
}
