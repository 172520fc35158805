// The flags of `npm run platform:admin` (scripts/platform-admin.ts), read by the portal's own rules: the one Ghana phone
// rule (app/lib/forms/phone.ts, decision 030), the email rule and sign-in's lower-case form, and the Team invitation's name
// rule. Pure, so tests/unit/platform-admin-args.test.ts holds every refusal to its message.
import { parseArgs } from "node:util";
import * as v from "valibot";
import { maskPhone } from "#app/lib/forms/phone";
import { ghanaPhoneField } from "#app/lib/forms/phone-field";
import { bidiControlMessage, hasBidiControl, isValidEmail } from "#app/lib/forms/validation";
import { normaliseEmail } from "#server/auth/sign-in";
import type { AdminInput } from "#server/operators/bootstrap";

export const USAGE = "Usage: npm run platform:admin -- --email EMAIL --phone PHONE --name NAME [--remote | --persist-to DIR]";

const Flags = v.object({
  email: v.pipe(
    v.string("Say whose account: --email EMAIL."),
    v.trim(),
    v.nonEmpty("Say whose account: --email EMAIL."),
    v.maxLength(254, "--email: that email address is too long."),
    v.check((typed) => isValidEmail(typed), "--email: enter an email address like name@example.com."),
    v.transform(normaliseEmail),
  ),
  phone: v.pipe(
    v.string("Say which phone gets the sign-in codes: --phone PHONE."),
    v.trim(),
    v.nonEmpty("Say which phone gets the sign-in codes: --phone PHONE."),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      // The forms' field, so a number is read exactly as the portal reads it; only the message gets the flag's name.
      const read = v.safeParse(ghanaPhoneField(""), dataset.value);
      if (read.success) return { msisdn: read.output, masked: maskPhone(read.output) };
      addIssue({ message: `--phone: ${read.issues[0].message}` });
      return NEVER;
    }),
  ),
  name: v.pipe(
    v.string("Say the person's full name: --name NAME."),
    v.trim(),
    v.nonEmpty("--name: enter the person's full name."),
    v.maxLength(100, "--name: keep the name under 100 characters."),
    v.check((typed) => !hasBidiControl(typed), `--name: ${bidiControlMessage("name")}`),
  ),
});

export interface PlatformAdminArgs {
  admin: AdminInput;
  /** The deployed core database (wrangler --remote) rather than the local one. */
  remote: boolean;
  /** The local state folder; undefined: `npm start`'s (.wrangler/state, or PP_STATE_DIR). */
  persistTo: string | undefined;
}

/** The flags read, or the one message that says what is wrong (the command prints it and exits 2). */
export function parsePlatformAdminArgs(
  argv: string[],
  env: { PP_STATE_DIR?: string } = {},
): { ok: true; args: PlatformAdminArgs } | { ok: false; message: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: "string" },
        phone: { type: "string" },
        name: { type: "string" },
        remote: { type: "boolean", default: false },
        "persist-to": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // node:util's own words ("Unknown option '--mail'"), which name the flag.
    return { ok: false, message: `${error instanceof Error ? error.message : String(error)}\n${USAGE}` };
  }
  const remote = values.remote === true;
  const persistTo = typeof values["persist-to"] === "string" ? values["persist-to"] : env.PP_STATE_DIR || undefined;
  if (remote && typeof values["persist-to"] === "string") return { ok: false, message: `Give --remote or --persist-to, not both.\n${USAGE}` };
  // Each key present even when its flag is not, so a missing flag gets its own message rather than valibot's "Invalid key".
  const read = v.safeParse(Flags, { email: values.email, phone: values.phone, name: values.name });
  if (!read.success) return { ok: false, message: `${read.issues[0].message}\n${USAGE}` };
  return { ok: true, args: { admin: read.output, remote, persistTo: remote ? undefined : persistTo } };
}
