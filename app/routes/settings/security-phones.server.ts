// The Security tab's phone numbers (decision 029): the numbers the person signs in with,
// and adding one, which only its owner can do. "Send code" needs a fresh check by what the person already has (a new
// number is a new way in), then sends a code to the new number; typing it back links the number.
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { AuthDeps } from "#server/auth/deps";
import { CHECK_MESSAGES, checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import type { VerifiedSession } from "#server/auth/guards";
import { authLimited, CODE_SEND_LIMITS, CODE_VERIFY_LIMITS, tooManyMessage } from "#server/auth/limits";
import { confirmPhoneProof, PHONE_MESSAGES, sendPhoneProof } from "#server/auth/phones";
import { smsPortFor } from "#server/sms/sms";
import { linkedNumbers } from "#server/team/people.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import type { TenantRequest } from "#server/guards";
import { maskPhone } from "#app/lib/forms/phone";
import { ghanaPhoneField } from "#app/lib/forms/phone-field";
import { SECURITY_URL } from "./tabs";

export const PHONE_INTENTS = ["add-phone", "confirm-phone"] as const;

/** The person's own numbers, masked as everywhere (the page may be on a shared screen). */
export async function loadPhones(deps: AuthDeps, session: VerifiedSession) {
  return (await linkedNumbers(deps.db, session.sub)).map((msisdn) => ({ masked: maskPhone(msisdn), current: msisdn === session.selectedPhoneNumber }));
}

const Phone = ghanaPhoneField("Enter the mobile number to add.");
const AddPhone = v.object({ intent: v.literal("add-phone"), phone: Phone });
const ConfirmPhone = v.object({
  intent: v.literal("confirm-phone"),
  phone: Phone,
  code: v.pipe(v.string(CHECK_MESSAGES.malformed), v.maxLength(20, CHECK_MESSAGES.malformed)),
});

/** What the tab reads back: the number a code went to (the code form shows), and what was refused, by field. */
export interface PhoneAnswer {
  phoneForm: { sentTo: { msisdn: string; masked: string } | null; typed: string; errors: { phone?: string; code?: string } };
}

const answer = (body: PhoneAnswer["phoneForm"], status = 200) => data<PhoneAnswer>({ phoneForm: body }, { status });

export async function phonesAction(request: Request, context: AppLoadContext, signedIn: TenantRequest, form: Record<string, FormDataEntryValue>) {
  const { deps, tenant, session } = signedIn;
  const typed = typeof form.phone === "string" ? form.phone.slice(0, 40) : "";
  const now = deps.now();
  if (form.intent === "add-phone") {
    const parsed = v.safeParse(AddPhone, form);
    if (!parsed.success) return answer({ sentTo: null, typed, errors: { phone: parsed.issues[0].message } }, 400);
    const phone = { msisdn: parsed.output.phone, masked: maskPhone(parsed.output.phone) };
    return underFreshCheck(request, signedIn, checkBindings.addPhone(phone.msisdn), form, async () => {
      const wait = await authLimited(deps.db, request, CODE_SEND_LIMITS, session.sub, now);
      if (wait !== null) return answer({ sentTo: null, typed, errors: { phone: tooManyMessage(wait) } }, 429);
      const sent = await sendPhoneProof(deps, session, tenant.businessId, phone, smsPortFor(deps.config, deps.db));
      if (!sent.ok) return answer({ sentTo: null, typed, errors: { phone: sent.message } }, sent.retryAfterSeconds ? 429 : 400);
      return answer({ sentTo: phone, typed, errors: {} });
    });
  }
  const parsed = v.safeParse(ConfirmPhone, form);
  if (!parsed.success) {
    const sentTo = typeof form.phone === "string" && /^233\d{9}$/.test(form.phone) ? { msisdn: form.phone, masked: maskPhone(form.phone) } : null;
    return answer({ sentTo, typed, errors: sentTo ? { code: parsed.issues[0].message } : { phone: parsed.issues[0].message } }, 400);
  }
  const phone = { msisdn: parsed.output.phone, masked: maskPhone(parsed.output.phone) };
  const wait = await authLimited(deps.db, request, CODE_VERIFY_LIMITS, session.sub, now);
  if (wait !== null) return answer({ sentTo: phone, typed, errors: { code: tooManyMessage(wait) } }, 429);
  const confirmed = await confirmPhoneProof(deps, session, tenant.businessId, phone, parsed.output.code);
  if (!confirmed.ok) return answer({ sentTo: phone, typed, errors: { code: confirmed.message } }, confirmed.retryAfterSeconds ? 429 : 400);
  throw await redirectWithFlash(request, context.config.app, SECURITY_URL, { kind: "success", message: PHONE_MESSAGES.linked(phone.masked) });
}
