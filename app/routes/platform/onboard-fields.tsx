// The sections of the onboarding form (/platform/businesses/new): the business, its logo and database, and its first
// two people, a Super Administrator and an Administrator. Each error sits under its field (app/components/forms/form.tsx).
import { describedBy, Field, TextField, type FieldValues } from "#app/components/forms/form";
import { RegionSelect } from "#app/components/forms/region-select";
import { FEWEST, PERSON_PREFIXES } from "./onboarding-form";
import type { FoundingRole } from "#server/operators/onboarding";
import { PHONE_MAX_LENGTH } from "#app/lib/forms/phone";

type Errors = Record<string, string>;

const PREFIX = "onboard";

export function BusinessFields({ values, errors }: { values: FieldValues; errors: Errors }) {
  const common = { values, errors, prefix: PREFIX };
  return (
    <div className="form-grid">
      <TextField {...common} name="name" label="Legal name" hint="As registered with the Registrar of Companies." maxLength={120} autoComplete="off" />
      <TextField
        {...common}
        name="trading_name"
        label="Trading name"
        hint="Leave empty when it trades under its legal name."
        maxLength={120}
        required={false}
      />
      <TextField
        {...common}
        name="identifier"
        label="Business identifier"
        hint="Registration number (like CS160152013) or TIN (like C0008473783)."
        maxLength={20}
        autoComplete="off"
      />
      <TextField {...common} name="sector" label="Sector" hint="Like Retail, Transport or Hospitality." maxLength={60} />
      <TextField {...common} name="town" label="Town" maxLength={60} />
      <RegionSelect id={`${PREFIX}-region`} value={String(values.region ?? "")} error={errors.region} />
      <TextField
        {...common}
        name="contact_number"
        label="Contact number"
        type="tel"
        inputMode="tel"
        hint="0302123456 or 233302123456."
        maxLength={PHONE_MAX_LENGTH}
      />
      <TextField {...common} name="contact_email" label="Contact email" type="email" inputMode="email" maxLength={254} />
    </div>
  );
}

export function PlacementFields({ values, errors, shards }: { values: FieldValues; errors: Errors; shards: readonly { shard: string; businesses: number }[] }) {
  const logoId = `${PREFIX}-logo`;
  const shardId = `${PREFIX}-shard`;
  const count = (n: number) => `${n} ${n === 1 ? "business" : "businesses"}`;
  return (
    <div className="form-grid">
      <Field id={logoId} label="Logo (optional)" hint="PNG, JPEG or WebP, up to 512 KB. Choose it again after a refused send." error={errors.logo}>
        <input id={logoId} name="logo" type="file" accept="image/png,image/jpeg,image/webp" {...describedBy(logoId, errors.logo, true)} />
      </Field>
      <Field id={shardId} label="Database" hint="Where the business's records are kept." error={errors.shard}>
        <select id={shardId} name="shard" defaultValue={String(values.shard ?? FEWEST)} {...describedBy(shardId, errors.shard, true)}>
          <option value={FEWEST}>The one with the fewest businesses</option>
          {shards.map((s) => (
            <option key={s.shard} value={s.shard}>
              {`${s.shard} (${count(s.businesses)})`}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

/**
 * One of the business's first two people, the same three fields for both (app/routes/platform/onboarding-form.ts gives them the
 * same rules); only the names' prefix and the role in the hints differ.
 */
export function PersonFields({ roleName: role, values, errors }: { roleName: FoundingRole; values: FieldValues; errors: Errors }) {
  const common = { values, errors, prefix: PREFIX };
  const field = PERSON_PREFIXES[role];
  return (
    <div className="form-grid">
      <TextField {...common} name={`${field}_name`} label="Full name" maxLength={100} autoComplete="off" />
      <TextField
        {...common}
        name={`${field}_email`}
        label="Email"
        type="email"
        inputMode="email"
        hint={`They sign in with it. If it already has an account, that person becomes the ${role}.`}
        maxLength={254}
        autoComplete="off"
      />
      <TextField
        {...common}
        name={`${field}_phone`}
        label="Mobile number"
        type="tel"
        inputMode="tel"
        hint="Their sign-in codes go here. An existing account keeps its own numbers."
        maxLength={PHONE_MAX_LENGTH}
        autoComplete="off"
      />
    </div>
  );
}
