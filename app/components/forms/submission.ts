// What a form does when the connection drops as it is sent (SPEC
// section 8). Without this, Remix shows the error page and what was typed is
// gone. With it:
// - the page stays as it was, typed values included, and the generic error
//   handler's alert says "Action Failed. Please check connectivity and try again";
// - the failed send's submission id is kept, so trying again sends the same
//   id, and the Worker runs the form once even if the first send did arrive
//   and only its answer was lost (functions/plumbing/submitted-once.ts);
// - after any answer (done, refused, an error page), the next send gets a new id.
// Every route with a form exports `clientAction` and `shouldRevalidate` from
// here (the root exports `shouldRevalidate` too), so there is one way to do it.
import type { ClientActionFunctionArgs, ShouldRevalidateFunction } from "@remix-run/react";
import { isNetworkFailure } from "#app/lib/errors";
import { notifications } from "#app/components/notifications";

export { isNetworkFailure };

/** The hidden field's name; the Worker reads the same (functions/plumbing/submitted-once.ts). */
export const SUBMISSION_FIELD = "submission";

/**
 * What a route's action data is when the send never got an answer: the shape
 * of a refusal (functions/plumbing/http.ts) with no errors, so every screen reads it as
 * it reads a 400, with the form's intent and what was typed.
 */
export interface ConnectionLostResult {
  connectionLost: true;
  intent?: string;
  errors: Record<string, string>;
  values: Record<string, string>;
}

/** A send that failed on the network. It has no message of its own, so the alert says the SPEC's default. */
export class ConnectionLost extends Error {
  override name = "ConnectionLost";
  constructor(cause: unknown) {
    super("", { cause });
  }
}

export function isConnectionLost(value: unknown): value is ConnectionLostResult {
  return typeof value === "object" && value !== null && (value as Partial<ConnectionLostResult>).connectionLost === true;
}

interface Send {
  /** Which form: where it posts and its intent (a screen may re-render a form as a new element). */
  form: string;
  id: string;
  element: HTMLFormElement;
}

/** The send under way, and the last one that lost its connection (whose id a retry of the same form reuses). */
let sending: Send | null = null;
let lost: Send | null = null;

function formKey(form: HTMLFormElement, submitter: HTMLElement | null): string {
  const intent = submitter instanceof HTMLButtonElement && submitter.name === "intent" ? submitter.value : new FormData(form).get("intent");
  return `${form.action} ${typeof intent === "string" ? intent : ""}`;
}

/** Chooses a post form's submission id as it is sent, before Remix reads its fields (capture phase, on window). */
function chooseSubmissionId(event: SubmitEvent): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const method = (event.submitter?.getAttribute("formmethod") ?? form.getAttribute("method") ?? "get").toLowerCase();
  if (method !== "post") return;
  const key = formKey(form, event.submitter);
  // A second click while the first send is under way is the same submission.
  const id = sending?.element === form && sending.form === key ? sending.id : lost?.form === key ? lost.id : crypto.randomUUID();
  sending = { form: key, id, element: form };
}

/**
 * Puts the id in the form's data as it is read: Remix's FormData, or the browser's own send when the form's part of
 * the page is not hydrated yet. Never in the page itself: a field added to server-rendered HTML that React has not
 * hydrated yet (a Settings tab whose code is still coming) breaks that hydration (React #418).
 */
function addSubmissionId(event: FormDataEvent): void {
  if (sending?.element === event.target && !event.formData.has(SUBMISSION_FIELD)) event.formData.append(SUBMISSION_FIELD, sending.id);
}

/** Installs the submission ids; called once by the browser entry. */
export function installSubmissionIds(): void {
  window.addEventListener("submit", chooseSubmissionId, true);
  window.addEventListener("formdata", addSubmissionId, true);
}

/** The answer came (of whatever kind): the form's next send is a new submission. */
function forgetSubmissionId(): void {
  sending = null;
  lost = null;
}

/** What was typed, as a refusal carries it (files are not kept). */
async function typedValues(request: Pick<Request, "formData">): Promise<{ intent?: string; values: Record<string, string> }> {
  const values: Record<string, string> = {};
  try {
    for (const [name, value] of await request.formData()) if (typeof value === "string" && name !== SUBMISSION_FIELD) values[name] = value;
  } catch {
    // Not a form: nothing typed to keep.
  }
  return values.intent === undefined ? { values } : { intent: values.intent, values };
}

/** Whether the last answer was a refusal with messages (a 400 of functions/plumbing/http.ts), not yet shown to the eye. */
let refusedSend = false;
/**
 * Whether the last send's answer is on the page (data: a refusal, a check to pass, a result to show), not a redirect
 * to another page or an error: kept until the next send starts.
 */
let lastAnswerInPage = false;

function isRefusal(value: unknown): boolean {
  if (typeof value !== "object" || value === null || isConnectionLost(value)) return false;
  const errors = (value as { errors?: unknown }).errors;
  return typeof errors === "object" && errors !== null && Object.keys(errors).length > 0;
}

/** Whether a refused send waits to be shown: the page then takes the eye to what was refused (app/components/forms/form.tsx). */
export function refusedSendWaiting(): boolean {
  return refusedSend;
}

/** The refusal is shown: the next answer is judged afresh. */
export function refusedSendShown(): void {
  refusedSend = false;
}

/** Whether the last send's answer is on the page: the page's data read again after it is then no send of the person's. */
export function lastAnswerIsInPage(): boolean {
  return lastAnswerInPage;
}

export async function clientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<unknown> {
  let connectionLost = false;
  // Read before the send: the request's body can be read once.
  const typed = typedValues(request.clone());
  lastAnswerInPage = false;
  try {
    // A redirect or an error is thrown; what is returned is shown on the page.
    const answer = await serverAction();
    lastAnswerInPage = true;
    refusedSend = isRefusal(answer);
    return answer;
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    connectionLost = true;
    lost = sending;
    notifications.handleError(new ConnectionLost(error));
    return { connectionLost: true, errors: {}, ...(await typed) } satisfies ConnectionLostResult;
  } finally {
    if (!connectionLost) forgetSubmissionId();
  }
}

/** After a lost send nothing is reloaded (it would fail too, and show the error page): the page stays as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isConnectionLost(actionResult) ? false : defaultShouldRevalidate;
