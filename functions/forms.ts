// The one form reader (decision 046): every action of the portal reads what was posted here, and nowhere else.
// - What is not a form is a clear 4xx, never a 500: a method the action does not take is 405 with Allow; a body that
//   is not a form (JSON, text, a multipart body whose boundary is not the one declared, no body at all) is 400; a
//   body over the limit is 413, refused as soon as it passes the limit, whatever Content-Length said.
// - A field that holds what looks like a card number is refused at that field (PCI DSS 3.4.1, decision 031): the
//   portal keeps no card number, whatever form it is typed into.
// - A form's valibot issues become messages in one shape: the first message of each field, by its name (a nested
//   field by its dotted path), `form` for what concerns the whole form.
import { data } from "@remix-run/cloudflare";
import type * as v from "valibot";
import { looksLikeCardNumber } from "./card-numbers/card-numbers";
import { readBodyUpTo, refuse, type FieldErrors, type Refusal } from "./plumbing/http";

/** A form of the portal's own pages is a few kilobytes; the largest (a dispute's response) is well under this. */
export const MAX_FORM_BYTES = 256 * 1024;
/** The largest body any form of the portal takes: a dispute's evidence file (10 MB) and room for its form. */
export const LARGEST_FORM_BYTES = 10 * 1024 * 1024 + 64 * 1024;
/** The hidden field the browser adds to every post (app/components/forms/submission.ts): never typed, never shown. */
const SUBMISSION_FIELD = "submission";
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

export const NOT_A_FORM = "What was sent is not one of this page's forms. Reload the page and send the form again.";
export const FORM_TOO_LARGE = "What was sent is larger than any of this page's forms. Shorten what was typed and send it again.";
export const CARD_NUMBER_IN_FIELD = "This looks like a card number. The portal never keeps card numbers: remove it, and keep at most the last four digits.";

/** What was typed, by field, as a refusal gives it back so the form keeps it (files are not kept). */
export type TypedValues = Record<string, string>;

/** Why a body could not be read as a form: the status and the sentence to show. */
export interface NotAForm {
  status: 400 | 405 | 413;
  message: string;
  /** For a 405: the methods the action takes. */
  allow?: string;
}

export interface FormBodyOptions {
  /** The methods the action takes (POST unless told). */
  methods?: readonly string[];
  /** The most bytes the body may have (MAX_FORM_BYTES unless told: a file upload says its own). */
  maxBytes?: number;
}

const methodMessage = (methods: readonly string[]) => `This page's forms are sent by ${methods.join(" or ")}: reload the page and send the form from it.`;
const mediaType = (request: Request) => (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * The body as a form, or why it is not one. Used as is where the answer is not a page (the Partner API's evidence
 * upload); a page's action calls readForm.
 */
export async function readFormBody(request: Request, options: FormBodyOptions = {}): Promise<FormData | NotAForm> {
  const methods = options.methods ?? ["POST"];
  const maxBytes = options.maxBytes ?? MAX_FORM_BYTES;
  if (!methods.includes(request.method)) return { status: 405, message: methodMessage(methods), allow: methods.join(", ") };
  const type = request.headers.get("Content-Type");
  if (!FORM_TYPES.includes(mediaType(request))) return { status: 400, message: NOT_A_FORM };
  if (Number(request.headers.get("Content-Length") ?? "0") > maxBytes) return { status: 413, message: FORM_TOO_LARGE };
  const bytes = await readBodyUpTo(request, maxBytes).catch(() => undefined);
  if (bytes === null) return { status: 413, message: FORM_TOO_LARGE };
  if (bytes === undefined) return { status: 400, message: NOT_A_FORM };
  try {
    // Parsed from the bytes already read and held to the limit: the request's own stream is read only once.
    return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "Content-Type": type ?? "" } }).formData();
  } catch {
    return { status: 400, message: NOT_A_FORM };
  }
}

/** The fields a page shows messages at, and what it says (at `form`) about any other: a hidden field's, say. */
export interface ShownFields {
  fields: readonly string[];
  otherwise: string;
}

/**
 * The one mapping of a form's issues to messages: the first for each field (a nested one by its dotted path), `form`
 * when no field is named. With `shown`, a field the page has no place for is said once, at `form`.
 */
export function formErrors(issues: readonly v.BaseIssue<unknown>[], shown?: ShownFields): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path?.map((item) => String(item.key)).join(".") || "form";
    if (shown && key !== "form" && !shown.fields.includes(key)) errors.form ??= shown.otherwise;
    else errors[key] ??= issue.message;
  }
  return errors;
}

/** The typed fields that hold what looks like a card number, each with the message to show at it. */
export function cardNumberFields(form: FormData): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && name !== SUBMISSION_FIELD && looksLikeCardNumber(value)) errors[name] ??= CARD_NUMBER_IN_FIELD;
  }
  return errors;
}

function typedValues(form: FormData): TypedValues {
  const values: TypedValues = {};
  for (const [name, value] of form) if (typeof value === "string" && name !== SUBMISSION_FIELD) values[name] = value;
  return values;
}

export type FormRefusal = ReturnType<typeof refuse<TypedValues>>;

/** A form read: its entries, the last value of each field (as Object.fromEntries gives them), what was typed. */
export interface ReadForm {
  ok: true;
  form: FormData;
  fields: Record<string, File | string>;
  values: TypedValues;
  intent: string | undefined;
}

export type FormRead = ReadForm | { ok: false; refusal: FormRefusal };

/** What a page's action answers when the body is not one of its forms: the page, with the message, and the status. */
function notAFormRefusal(problem: NotAForm): FormRefusal {
  const headers: Record<string, string> = problem.allow ? { Allow: problem.allow } : {};
  return data<Refusal<TypedValues>>({ errors: { form: problem.message }, values: {} }, { status: problem.status, headers });
}

/** The 405 page of an action asked by a method it does not take (its forms are sent by POST), or null. */
export function methodRefusal(request: Request, methods: readonly string[] = ["POST"]): FormRefusal | null {
  return methods.includes(request.method) ? null : notAFormRefusal({ status: 405, message: methodMessage(methods), allow: methods.join(", ") });
}

/**
 * Reads a page's form: `if (!read.ok) return read.refusal;` answers the page with the messages (400, or 405 / 413);
 * otherwise `read.fields` is the form as Object.fromEntries gives it.
 */
export async function readForm(request: Request, options: FormBodyOptions = {}): Promise<FormRead> {
  const form = await readFormBody(request, options);
  if (!(form instanceof FormData)) return { ok: false, refusal: notAFormRefusal(form) };
  const values = typedValues(form);
  const intent = typeof values.intent === "string" ? values.intent : undefined;
  const cards = cardNumberFields(form);
  if (Object.keys(cards).length > 0) return { ok: false, refusal: refuse(cards, values, intent) };
  return { ok: true, form, fields: Object.fromEntries(form), values, intent };
}
