// Decision 031: the portal's own forms take no card number (PCI DSS 3.4.1), in any free-text field, however it is spelled.
// Each form of the audit (decision 046) is sent a generated card number in each of its free-text fields: the answer is
// the page with 400 and the message at that field, and no table holds the number afterwards, in any spelling.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { approvalPath } from "#app/lib/paths";
import { CARD_NUMBER_IN_FIELD } from "#server/forms";
import { passesLuhn } from "#server/card-numbers/card-numbers";
import { tablesHoldingDigits } from "../support/d1-dump";
import { actionDataOf } from "../support/html";
import { EFUA, makeStaff } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

/** A card number: an issuer's first digits, then digits, then the Luhn check digit (13 digits only for Visa's 4). */
const cardDigits = fc
  .tuple(fc.constantFrom("4", "51", "55", "2221", "37", "6011", "35"), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 14 }))
  .map(([prefix, rest]) => {
    const body = (prefix + rest.join("")).slice(0, 18);
    return body + [..."0123456789"].find((check) => passesLuhn(body + check))!;
  });

const SEPARATORS = ["", " ", "-", ".", "/", "  ", "\u00a0", "\u202f", "\u200b", "\u2013", "\t", "\n"];
/** The zero of each script's digits: ASCII, fullwidth, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali. */
const ZEROS = [0x30, 0xff10, 0x660, 0x6f0, 0x966, 0x9e6];

/** The number as a person may type it: in groups, with any separator, in any script's digits, inside a sentence. */
const cardSpelling = fc
  .record({
    digits: cardDigits,
    cuts: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
    separator: fc.constantFrom(...SEPARATORS),
    zero: fc.constantFrom(...ZEROS),
    before: fc.constantFrom("", "Card ", "Customer's card was ", "Ɔkyeame paid with "),
    after: fc.constantFrom("", " declined", " 🙂", " (Ɛsi)"),
  })
  .map(({ digits, cuts, separator, zero, before, after }) => {
    const groups: string[] = [];
    let at = 0;
    for (const cut of cuts) if (at < digits.length) groups.push(digits.slice(at, (at += cut)));
    if (at < digits.length) groups.push(digits.slice(at));
    const written = groups.join(separator).replace(/[0-9]/g, (digit) => String.fromCodePoint(zero + Number(digit)));
    return { digits, text: `${before}${written}${after}` };
  });

interface FormUnderTest {
  name: string;
  path: string;
  /** The other fields, as the page sends them. */
  fields: Record<string, string>;
  /** The fields a person types free text into, stored and shown. */
  text: string[];
  who: "business" | "platform";
}

const MERCHANT_TEXT = ["name", "trading_name", "sector", "town", "address", "contact_name"];
let forms: FormUnderTest[] = [];
let cookies: Record<FormUnderTest["who"], { Cookie: string }>;

beforeAll(async () => {
  const db = await portal().db();
  const one = async <T>(sql: string) => (await db.prepare(sql).bind(KUMASI).first<T>())!;
  const merchant = await one<{ id: string }>("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' LIMIT 1");
  const pointOfSale = await db
    .prepare("SELECT id FROM points_of_sale WHERE business_id = ? AND merchant_id = ? LIMIT 1")
    .bind(KUMASI, merchant.id)
    .first<{ id: string }>();
  const terminal = await one<{ id: string }>("SELECT id FROM terminals WHERE business_id = ? LIMIT 1");
  const payment = await one<{ id: number; merchant_id: string }>(
    "SELECT id, merchant_id FROM transactions WHERE business_id = ? AND status = 'successful' LIMIT 1",
  );
  const approval = await one<{ id: string; kind: string }>("SELECT id, kind FROM approval_requests WHERE business_id = ? AND status = 'pending' LIMIT 1");
  const now = Date.now();
  await db
    .prepare(
      `INSERT INTO disputes (id, business_id, merchant_id, transaction_id, reason_code, amount, evidence_due_at, status, opened_at)
       VALUES ('dsp_card_forms', ?, ?, ?, '13.1', 100, ?, 'open', ?)`,
    )
    .bind(KUMASI, payment.merchant_id, payment.id, now + 7 * 86_400_000, now)
    .run();
  await makeStaff(portal().core(), EFUA);
  cookies = { business: await signedInCookie(portal(), "ama.mensah@example.com", KUMASI), platform: await signedInCookie(portal(), EFUA.email, null) };
  const merchantFields = { code: "MRC-CARD1", tin: "C0008473783", region: "Ashanti", contact_phone: "0244123456", contact_email: "ama@example.com" };
  const business = (name: string, path: string, fields: Record<string, string>, text: string[]): FormUnderTest => ({
    name,
    path,
    fields,
    text,
    who: "business",
  });
  forms = [
    business("add a merchant", "/merchants/add-merchant", merchantFields, MERCHANT_TEXT),
    business("change a merchant", `/merchants/${merchant.id}`, { ...merchantFields, intent: "update-merchant" }, MERCHANT_TEXT),
    business("add a settlement account", `/merchants/${merchant.id}`, { intent: "add-account", provider: "MTN", account_number: "0244123456" }, [
      "account_name",
    ]),
    business("add a point of sale", `/merchants/${merchant.id}/add-point-of-sale`, { region: "Ashanti", contactPhone: "0244123456" }, [
      "name",
      "town",
      "address",
    ]),
    business(
      "change a point of sale",
      `/merchants/${merchant.id}/point-of-sale/${pointOfSale?.id ?? "none"}`,
      { region: "Ashanti", contactPhone: "0244123456" },
      ["name", "town", "address"],
    ),
    business("block a terminal", `/pos-terminals/device-details/${terminal.id}`, { intent: "block" }, ["reason"]),
    business("ask for a refund", `/transactions/${payment.id}/refund`, { amount: "1.00", idempotencyKey: randomUUID() }, ["reason"]),
    business("reject a request", approvalPath(approval.kind, approval.id)!, { intent: "reject" }, ["reason"]),
    business("reject the chosen requests", "/approvals", { intent: "reject-selected", ids: approval.id }, ["reason"]),
    business("answer a dispute", "/disputes/dsp_card_forms", { intent: "respond" }, ["response"]),
    business("add a webhook endpoint", "/settings?tab=developers", { intent: "create", url: "https://example.com/hook", eventTypes: "payment.succeeded" }, [
      "description",
    ]),
    business("make an API key", "/settings?tab=developers", { intent: "create-key" }, ["name"]),
    business("invite a person", "/settings?tab=team", { intent: "invite", email: "kwesi@example.com", phone: "0244000111", gender: "male", role: "Viewer" }, [
      "name",
    ]),
    business("rename a passkey", "/settings?tab=security", { intent: "rename-passkey", passkeyId: "pk_none" }, ["name"]),
    { name: "suspend a business", path: `/platform/businesses/${KUMASI}/lifecycle`, fields: { intent: "suspend" }, text: ["reason"], who: "platform" },
    {
      name: "onboard a business",
      path: "/platform/businesses/new",
      fields: { identifier: "CS160152013", region: "Ashanti", contact_number: "0244123456", contact_email: "new@example.com", admin_email: "boss@example.com" },
      text: ["name", "trading_name", "sector", "town", "admin_name", "second_name"],
      who: "platform",
    },
    { name: "make a platform key", path: "/platform/keys", fields: { intent: "create-key" }, text: ["name"], who: "platform" },
  ];
});

interface Refusal {
  errors: Record<string, string>;
  values: Record<string, string>;
}

describe("a card number typed into any of the portal's forms", () => {
  it("is refused at its field (400) on every form, in any spelling, and never stored", { timeout: 180_000 }, async () => {
    const sent: string[] = [];
    for (const form of forms) {
      for (const field of form.text) {
        await fc.assert(
          fc.asyncProperty(cardSpelling, async ({ digits, text }) => {
            sent.push(digits);
            const response = await portal().fetch(form.path, {
              method: "POST",
              headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookies[form.who] },
              body: new URLSearchParams({ ...form.fields, [field]: text, submission: randomUUID() }).toString(),
              redirect: "manual",
            });
            const where = `${form.name}: ${field} = ${JSON.stringify(text)}`;
            expect(response.status, where).toBe(400);
            const refusal = Object.values(actionDataOf(await response.text())).find((value): value is Refusal => Boolean((value as Refusal | null)?.errors));
            expect(refusal?.errors[field], where).toBe(CARD_NUMBER_IN_FIELD);
          }),
          { numRuns: 4 },
        );
      }
    }
    expect(await tablesHoldingDigits(await portal().db(), sent)).toEqual([]);
    expect(await tablesHoldingDigits(portal().core(), sent)).toEqual([]);
  });
});
