// Small pieces the merchant page's sections share.
import type { FieldErrors } from "./merchant-form-values";
import { ErrorSummary } from "#app/components/forms/form";

/** The form's own refusal, or a pointer to the messages under the fields. */
export function FormNotice({ errors }: { errors: FieldErrors }) {
  if (errors.form) return <ErrorSummary>{errors.form}</ErrorSummary>;
  if (Object.keys(errors).length === 0) return null;
  return <ErrorSummary>Some fields need attention: see the messages under them.</ErrorSummary>;
}

/** Which form of the page is open: the one refused just now, else the one the URL asks for. */
export interface OpenForm {
  intent: string;
  accountId: string | null;
}

export function openForm(refused: { intent?: string; values: Record<string, string> } | null, query: URLSearchParams): OpenForm | null {
  if (refused?.intent) return { intent: refused.intent, accountId: refused.values?.accountId ?? null };
  if (query.get("edit") === "merchant") return { intent: "update-merchant", accountId: null };
  if (query.get("deactivate") === "merchant") return { intent: "deactivate-merchant", accountId: null };
  if (query.get("account") === "new") return { intent: "add-account", accountId: null };
  if (query.get("account")) return { intent: "update-account", accountId: query.get("account") };
  if (query.get("deactivate-account")) return { intent: "deactivate-account", accountId: query.get("deactivate-account") };
  return null;
}
