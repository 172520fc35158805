// The one form reader (decision 046): what is not a form is a 4xx with its sentence, never a throw; the issues of a
// form map to one message per field; a card number in any field is refused at that field.
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { CARD_NUMBER_IN_FIELD, FORM_TOO_LARGE, formErrors, MAX_FORM_BYTES, NOT_A_FORM, readForm, readFormBody } from "./forms";

const post = (body: BodyInit | null, type: string | null, method = "POST") =>
  new Request("https://portal.test/merchants/add-merchant", { method, body, headers: type ? { "Content-Type": type } : {} });

describe("readFormBody", () => {
  it("reads a form, urlencoded or multipart, names from Ghana and emoji kept", async () => {
    const form = await readFormBody(post("name=%C6%86kyeame%20%F0%9F%99%82&town=Kumasi", "application/x-www-form-urlencoded"));
    expect(form instanceof FormData && Object.fromEntries(form)).toEqual({ name: "Ɔkyeame 🙂", town: "Kumasi" });
    const multipart = new FormData();
    multipart.set("name", "Ɛsi Ŋ");
    const sent = new Request("https://portal.test/x", { method: "POST", body: multipart });
    const read = await readFormBody(sent);
    expect(read instanceof FormData && read.get("name")).toBe("Ɛsi Ŋ");
  });

  it("answers any other body with 400, any other method with 405 and Allow, never a throw", async () => {
    const bodies = fc.record({
      type: fc.constantFrom(
        null,
        "application/json",
        "text/plain",
        "multipart/form-data; boundary=declared",
        "multipart/form-data",
        "application/octet-stream",
      ),
      bytes: fc.option(fc.uint8Array({ maxLength: 200 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(bodies, async ({ type, bytes }) => {
        const answer = await readFormBody(post(bytes, type));
        // An empty multipart body with a boundary is no form either: the parser refuses it.
        expect(answer).toEqual({ status: 400, message: NOT_A_FORM });
      }),
    );
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect(await readFormBody(post("a=b", "application/x-www-form-urlencoded", method))).toEqual({
        status: 405,
        message: expect.stringContaining("POST"),
        allow: "POST",
      });
    }
  });

  it("answers 413 past the limit, declared or not", async () => {
    const big = "a=" + "x".repeat(MAX_FORM_BYTES);
    expect(await readFormBody(post(big, "application/x-www-form-urlencoded"))).toEqual({ status: 413, message: FORM_TOO_LARGE });
    const stream = new Blob([big]).stream();
    const chunked = new Request("https://portal.test/x", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    expect(await readFormBody(chunked)).toEqual({ status: 413, message: FORM_TOO_LARGE });
  });
});

describe("readForm", () => {
  it("refuses a card number at its field, with what was typed and the form's intent", async () => {
    const read = await readForm(post("intent=respond&response=card%204111%201111%201111%201111%20declined&note=fine", "application/x-www-form-urlencoded"));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.refusal.init?.status).toBe(400);
    expect(read.refusal.data).toEqual({
      intent: "respond",
      errors: { response: CARD_NUMBER_IN_FIELD },
      values: { intent: "respond", response: "card 4111 1111 1111 1111 declined", note: "fine" },
    });
  });

  it("lets a phone or account number (9 to 12 characters) and a time in ms through", async () => {
    const read = await readForm(post("contact_phone=233244123456&account_number=463-09378022&at=1764067200000", "application/x-www-form-urlencoded"));
    expect(read.ok).toBe(true);
  });
});

describe("formErrors", () => {
  const Schema = v.object({ name: v.pipe(v.string(), v.nonEmpty("Enter the name.")), ids: v.array(v.pipe(v.string(), v.nonEmpty("Choose one."))) });

  it("gives the first message of each field, a nested one by its dotted path", () => {
    const issues = v.safeParse(Schema, { name: "", ids: ["", ""] }).issues!;
    expect(formErrors(issues)).toEqual({ name: "Enter the name.", "ids.0": "Choose one.", "ids.1": "Choose one." });
  });

  it("says a field the page has no place for once, at form", () => {
    const issues = v.safeParse(Schema, { name: "", ids: [""] }).issues!;
    expect(formErrors(issues, { fields: ["name"], otherwise: "Reload the page." })).toEqual({ name: "Enter the name.", form: "Reload the page." });
  });
});
