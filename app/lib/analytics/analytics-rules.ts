// The two analytics rules the page needs before its sending code has loaded (decision 043): which answers are failed
// requests and which landings are page views. Everything else of analytics loads once the page is idle.

/**
 * Whether landing on `url` is a page view. Every navigation is, a link to the same
 * page included; a form submission's answer is not when it shows the page it was
 * sent from (a refusal, 400, re-rendered in place, or a redirect back to it).
 */
export function isPageView(previous: string | null, url: string, bySubmission: boolean): boolean {
  return previous === null || !bySubmission || url !== previous;
}

/**
 * Whether an answer is a failed request worth an Error event. A 428 is not: it is how an action asks for a fresh
 * check, which the page then makes and sends again (SPEC section 8 reports errors, not questions).
 */
export function isFailedRequest(status: number): boolean {
  return status >= 400 && status !== 428;
}

/** Where the queue posts events; the page never reports a failure of its own reports. */
export const EVENTS_ENDPOINT = "/api/events";
