// The fresh-check dialog (app/components/forms/fresh-check-dialog.tsx): an action that needs a check answers 428 with what it
// is for (functions/auth/fresh-check.ts); the dialog asks for a passkey or a code sent by SMS, makes the check at
// /auth/check, and sends the form again, as it was. Its code, and the passkey library's loader, come only once an
// action asks for a check (decision 043): a page shows no dialog before that, on the server and in the browser alike,
// so hydration never meets it.
import { lazy, Suspense, useState } from "react";
import type { CheckNeeded } from "#server/auth/fresh-check";

const FreshCheckDialog = lazy(() => import("./fresh-check-dialog"));

/** The answer of an action that asked for a check, or null. */
export function checkOf(answer: unknown): CheckNeeded | null {
  if (typeof answer !== "object" || answer === null || !("check" in answer)) return null;
  return (answer as { check: CheckNeeded }).check;
}

/** The action's answer unless it asked for a check: what the page's fields read (a refusal, or nothing). */
export function refusalOf<T>(answer: T | undefined): Exclude<T, { check: CheckNeeded }> | undefined {
  return checkOf(answer) ? undefined : (answer as Exclude<T, { check: CheckNeeded }> | undefined);
}

/**
 * `check`: the 428's ask (a new object each time). After the check the form is sent again as it was, or, for a page
 * that is not a form (adding a passkey), `onChecked` runs instead. Nothing is rendered until the first ask; the dialog
 * then stays mounted, so a later ask reopens it at once.
 */
export function FreshCheck({ check, onChecked }: { check: CheckNeeded | null; onChecked?: () => void }) {
  const [asked, setAsked] = useState(check !== null);
  if (check && !asked) setAsked(true);
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <FreshCheckDialog check={check} onChecked={onChecked} />
    </Suspense>
  );
}
