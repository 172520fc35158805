/** A refusal that speaks to the whole tab or form. */
export function ErrorNotice({ error }: { error: string | null | undefined }) {
  return error ? (
    <p className="notice notice--danger notice__message" role="alert">
      {error}
    </p>
  ) : null;
}
