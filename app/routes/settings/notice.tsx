import { ErrorSummary } from "#app/components/forms/form";

/** A refusal that speaks to the whole tab or form. */
export function ErrorNotice({ error }: { error: string | null | undefined }) {
  return error ? <ErrorSummary>{error}</ErrorSummary> : null;
}
