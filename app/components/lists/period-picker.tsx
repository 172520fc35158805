// The period of a money list: the quick ranges as links and two typed days, both kept in the URL (range, from, to)
// with every other parameter of the list, so the list and its CSV read the same period; and the day field itself
// (DateInput), which the other lists that filter by day use too (Settings → Audit).
import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { calendarDay, fieldDay } from "#app/lib/format";
import { DAY_FIELD_FORMAT, parseDay } from "#app/lib/forms/days";
import { ListForm } from "#app/components/lists/list-form";
import { QUICK_RANGES } from "#app/lib/date-range";
import { filterHref } from "#app/lib/lists/list-url";

export interface PickedPeriod {
  /** null: no period asked for, on a list that shows every period unless one is (`allLabel`). */
  range: string | null;
  fromDay: string;
  toDay: string;
  error: string | null;
}

export function PeriodPicker({
  period,
  drops = [],
  fallback,
  allLabel,
}: {
  period: PickedPeriod;
  /** Parameters a changed period drops (an open panel that may not be in the new period). */
  drops?: readonly string[];
  /** What the list shows when the typed days are refused ("the last 7 days"). */
  fallback: string;
  /** A first link for every period, on a list that has no period unless one is chosen. */
  allLabel?: string;
}) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const cleared = Object.fromEntries(drops.map((name) => [name, null]));
  const shown = period.range !== null;
  return (
    <>
      <nav className="range-tabs" aria-label="Period">
        {allLabel ? (
          <Link
            to={filterHref(params, { ...cleared, range: null, from: null, to: null })}
            className="range-tabs__tab"
            aria-current={period.range === null ? "true" : undefined}
          >
            {allLabel}
          </Link>
        ) : null}
        {QUICK_RANGES.filter((r) => r.value !== "custom").map((r) => (
          <Link
            key={r.value}
            to={filterHref(params, { ...cleared, range: r.value, from: null, to: null })}
            className="range-tabs__tab"
            aria-current={period.range === r.value ? "true" : undefined}
          >
            {r.label}
          </Link>
        ))}
      </nav>
      <ListForm sets={["range", "from", "to", ...drops]} className="inline-form range-form" label="Custom period">
        <input type="hidden" name="range" value="custom" />
        <div className="range-form__field">
          <label htmlFor="period-from">From</label>
          <DateInput
            id="period-from"
            name="from"
            label="From"
            defaultValue={shown ? period.fromDay : ""}
            required
            aria-invalid={period.error ? true : undefined}
            aria-describedby={period.error ? "range-error" : undefined}
          />
        </div>
        <div className="range-form__field">
          <label htmlFor="period-to">To</label>
          <DateInput id="period-to" name="to" label="To" defaultValue={shown ? period.toDay : ""} required aria-invalid={period.error ? true : undefined} />
        </div>
        <button type="submit" className="button">
          Show period
        </button>
        {period.error ? (
          <p className="field-error" id="range-error" role="alert">
            {`${period.error} Showing ${fallback} instead.`}
          </p>
        ) : null}
      </ListForm>
    </>
  );
}

// A day field that reads and takes the day first (DD/MM/YYYY, SPEC section 9), whatever the browser's language: a
// browser's own date field writes 07/03/2026 for the 3rd of July in the US and the 7th of March in Ghana. A text field
// then, with the day spelt out beside it (07 Mar 2026), the arrow keys a day at a time, the browser's calendar behind a
// button, and a day that cannot be (31/02/2026) said so beside it, the form not sent (the field is invalid). What is
// sent is the URL's YYYY-MM-DD once the script runs (the form's data is rewritten as it is read); before, the typed
// text, which the server reads day first the same way (parseDay).
export function DateInput({
  id,
  name,
  label,
  defaultValue = "",
  "aria-describedby": describedBy,
  "aria-invalid": invalid,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "defaultValue" | "value" | "onChange"> & {
  id: string;
  name: string;
  /** The field's label ("From"), which names its calendar button. */
  label: string;
  /** YYYY-MM-DD. */
  defaultValue?: string;
}) {
  const field = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [day, setDay] = useState(defaultValue);
  const [error, setError] = useState<string | null>(null);
  /** Writes a day (YYYY-MM-DD) into the field, day first. */
  const put = (chosen: string) => {
    field.current?.setCustomValidity("");
    if (field.current) field.current.value = fieldDay(chosen);
    setDay(chosen);
    setError(null);
  };
  // A new period from the server (a quick range chosen) is a new field: an uncontrolled input keeps its old value.
  useEffect(() => put(defaultValue), [defaultValue]);

  // The data read from the form (by a list's form, or the browser sending it) carries YYYY-MM-DD, however it is read.
  useEffect(() => {
    const form = field.current?.form;
    const onFormData = (event: FormDataEvent) => {
      const read = readField(field.current);
      if ("day" in read && read.day) event.formData.set(name, read.day);
    };
    form?.addEventListener("formdata", onFormData);
    return () => form?.removeEventListener("formdata", onFormData);
  }, [name]);

  const errorId = `${id}-error`;
  return (
    <span className="date-input">
      <span className="date-input__row">
        <input
          ref={field}
          id={id}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={DAY_FIELD_FORMAT}
          defaultValue={fieldDay(defaultValue)}
          aria-invalid={error ? true : invalid}
          aria-describedby={[error ? errorId : "", `${id}-day`, describedBy ?? ""].join(" ").trim()}
          onChange={(event) => {
            const read = readField(event.currentTarget);
            // A day that cannot be makes the field invalid: the browser then sends nothing and says why (onInvalid).
            event.currentTarget.setCustomValidity("error" in read ? read.error : "");
            setDay("day" in read ? read.day : "");
            // A message already shown goes once the day is right; a new one waits for a send.
            if ("day" in read) setError(null);
          }}
          onInvalid={(event) => setError(event.currentTarget.validationMessage)}
          onKeyDown={(event) => {
            const read = readField(event.currentTarget);
            const by = { ArrowUp: 1, ArrowDown: -1 }[event.key];
            if (!by || !("day" in read) || !read.day) return;
            event.preventDefault();
            put(new Date(Date.parse(`${read.day}T12:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10));
          }}
          {...input}
        />
        <button
          type="button"
          className="date-input__pick"
          aria-label={`Choose the ${label} day on a calendar`}
          onClick={() => {
            if (!picker.current) return;
            picker.current.value = day;
            picker.current.showPicker();
          }}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" className="date-input__icon">
            <path d="M4 5h16v15H4zM4 10h16M8 3v4m8-4v4" />
          </svg>
        </button>
        {/* The browser's calendar, opened by the button; its choice is written day first into the field. */}
        <input
          ref={picker}
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          className="date-input__picker"
          onChange={(event) => {
            if (!event.currentTarget.value) return;
            put(event.currentTarget.value);
            field.current?.focus();
          }}
        />
      </span>
      <span className="date-input__day" id={`${id}-day`}>
        {day ? calendarDay(day) : ""}
      </span>
      {error ? (
        <span className="field-error" id={errorId} role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** What a field names: a day (YYYY-MM-DD), nothing (it is empty), or why it names none. */
function readField(input: HTMLInputElement | null): { day: string } | { error: string } {
  const text = input?.value.trim() ?? "";
  return text ? parseDay(text) : { day: "" };
}
