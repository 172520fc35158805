// Every form that takes a phone number, through the built Worker, reads it by the
// one Ghana rule (app/lib/forms/phone.ts): the same writings are taken and stored as
// 233XXXXXXXXX in the request, the same ones are refused with the same message
// next to the field, and nothing is requested.
import { describe, expect, it } from "vitest";
import { PHONE_MESSAGE } from "#app/lib/forms/phone";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const ESI = "esi.owusu@example.com"; // Operations: asks for merchants and points of sale
const AMA = "ama.mensah@example.com"; // Super Administrator: invites

interface PhoneForm {
  name: string;
  path: string;
  email: string;
  /** A valid form (unique by `n`) with this phone. */
  form: (n: number, phone: string) => Record<string, string>;
  kind: string;
  column: string;
}

const FORMS: PhoneForm[] = [
  {
    name: "add merchant",
    path: "/merchants/add-merchant",
    email: ESI,
    kind: "merchant",
    column: "contact_phone",
    form: (n, phone) => ({
      code: `PHN-${n}`,
      name: `Ɔdɔ Phone Test ${n} Limited`,
      trading_name: `Ɔdɔ Phone Test ${n}`,
      tin: `C${String(5_550_000_000 + n)}`,
      sector: "Groceries",
      town: "Kumasi",
      region: "Ashanti",
      address: "Adum",
      contact_name: "Akua Frimpong",
      contact_phone: phone,
      contact_email: `phone${n}@example.com`,
    }),
  },
  {
    name: "add point of sale",
    path: "/merchants/mer_kff_0002/add-point-of-sale",
    email: ESI,
    kind: "point_of_sale",
    column: "contact_phone",
    form: (n, phone) => ({ name: `Ɛnyɛ Hwee Branch ${n}`, town: "Kumasi", region: "Ashanti", address: "Suame", contactPhone: phone }),
  },
  {
    name: "Team invite",
    path: "/settings?tab=team",
    email: AMA,
    kind: "employee",
    column: "phone",
    form: (n, phone) => ({ intent: "invite", name: `Nyamekyɛ Test ${n}`, email: `nyamekye${n}@example.com`, phone, gender: "female", role: "Viewer" }),
  },
];

// Among them the writings one form or another used to refuse.
const TAKEN: [string, string][] = [
  ["024-412-3456", "233244123456"],
  ["244123456", "233244123456"],
  ["+233244123456", "233244123456"],
  ["(024) 412 3456", "233244123456"],
  ["+233 (0)50 123 4567", "233501234567"],
];
const REFUSED = ["0244 123 45", "+44 20 7946 0958", "024412345a", "(024)4123456)", "0144123456"];

let serial = 0;

async function post(form: PhoneForm, values: Record<string, string>) {
  return portal().fetch(form.path, {
    method: "POST",
    headers: {
      Origin: portal().url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/x-www-form-urlencoded",
      ...(await signedInCookie(portal(), form.email, KUMASI)),
    },
    body: new URLSearchParams(values).toString(),
    redirect: "manual",
  });
}

async function requests(): Promise<number> {
  return (await (await portal().db()).prepare("SELECT COUNT(*) AS n FROM approval_requests").first<number>("n")) ?? 0;
}

describe.each(FORMS)("$name", (form) => {
  it.each(TAKEN)("takes %j and asks for it as %s", async (typed, stored) => {
    const n = (serial += 1);
    const response = await post(form, form.form(n, typed));
    expect(
      response.status,
      await response
        .clone()
        .text()
        .then((html) => textOf(html).slice(0, 300)),
    ).toBeLessThan(400);
    const row = await (
      await portal().db()
    )
      .prepare("SELECT after_json FROM approval_requests WHERE kind = ? AND action = 'create' ORDER BY rowid DESC LIMIT 1")
      .bind(form.kind)
      .first<{ after_json: string }>();
    const after = JSON.parse(row!.after_json) as Record<string, unknown>;
    expect(JSON.stringify(after)).toContain(String(n));
    expect(after[form.column]).toBe(stored);
  });

  it.each(REFUSED)("refuses %j with the one message, and asks for nothing", async (typed) => {
    const before = await requests();
    const response = await post(form, form.form((serial += 1), typed));
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain(PHONE_MESSAGE);
    expect(await requests()).toBe(before);
  });
});
