// The one GET form of a list's controls (search, filters, a period, a status): it keeps every parameter of the URL
// that it does not set, so narrowing a list never drops what was chosen elsewhere on the page, with or without the
// script.
import { Form, useLocation, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";
import { keptParams, narrowedQuery } from "#app/lib/lists/list-url";

export function ListForm({
  sets,
  defaults,
  submitOnSelect = false,
  className,
  label,
  role,
  children,
}: {
  /**
   * The parameters this form decides: its fields' names, and any it drops when sent (an open payment that may no
   * longer be in the narrowed list). Every other parameter of the URL goes along unchanged.
   */
  sets: readonly string[];
  /** Values that mean "not narrowed" (the first sort), left out of the URL. */
  defaults?: Readonly<Record<string, string>>;
  /** A changed select applies at once (with the script); the form's own button does it without. */
  submitOnSelect?: boolean;
  className?: string;
  label?: string;
  role?: "search";
  children: ReactNode;
}) {
  const { search } = useLocation();
  const submit = useSubmit();
  const apply = (form: HTMLFormElement) => submit(narrowedQuery(new FormData(form), defaults), { method: "get", replace: true });
  return (
    <Form
      method="get"
      className={className}
      role={role}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
      onChange={submitOnSelect ? (event) => event.target instanceof HTMLSelectElement && apply(event.currentTarget) : undefined}
    >
      {keptParams(new URLSearchParams(search), sets).map(([key, value], index) => (
        <input key={`${key}-${index}`} type="hidden" name={key} value={value} />
      ))}
      {children}
    </Form>
  );
}
