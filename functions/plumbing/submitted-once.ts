// A form is run once, however often the browser sends it (SPEC
// section 8). The browser gives each send of a post form a submission id and
// keeps it when the send fails on the network, so "try again" re-sends the
// same id (app/components/forms/submission.ts). Here, before Remix runs the action:
// - the first send with an id claims it and runs; a success (2xx, 3xx) is kept;
// - a re-send whose first send succeeded gets the kept answer (the approval
//   request, the transfer, the invitation is not made twice);
// - a re-send while the first still runs waits for its answer;
// - a refusal (400) or failure is not kept: the corrected form runs again.
// Only for a signed-in session (the id is claimed per session) and only for
// Remix's data requests and redirects: a whole HTML page carries a CSP nonce of
// its own request and cannot be replayed.
// A kept answer is given only while the session's row is still active (not signed
// out, revoked or run out): the cookie's signature outlives a sign-out, and a
// shared computer's browser would otherwise get the answer and its flash again.
// Otherwise the form runs as any, and the guard refuses it.
// Which session sent the form is asked of the caller (functions/auth/sign-in.ts submittingSession, given by
// worker.ts): plumbing knows no domain, so sessions stay auth's alone.
import { answerSubmission, claimSubmission, releaseSubmission, type StoredAnswer } from "./submissions.db";
import { LARGEST_FORM_BYTES, readFormBody } from "../forms";

export const SUBMISSION_FIELD = "submission";
const SUBMISSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Larger answers are not kept (a data request's answer is a few kilobytes). */
const MAX_KEPT_BYTES = 256 * 1024;
const WAIT_STEP_MS = 200;
const MAX_WAIT_MS = 25_000;
/** Says a test (and an operator reading a trace) that this answer is the first send's. */
export const REPLAYED_HEADER = "X-Submission-Replayed";

async function submissionIdOf(request: Request): Promise<string | null> {
  if (request.method !== "POST") return null;
  // Read as every form is (functions/forms.ts), from a copy, up to the largest form (an evidence file's).
  const form = await readFormBody(request.clone() as Request, { maxBytes: LARGEST_FORM_BYTES });
  // Not a form after all: the action's own reading answers it.
  if (!(form instanceof FormData)) return null;
  const value = form.get(SUBMISSION_FIELD);
  return typeof value === "string" && SUBMISSION_ID.test(value) ? value : null;
}

function replay(answer: StoredAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of answer.headers) headers.append(name, value);
  headers.set(REPLAYED_HEADER, "1");
  return new Response(answer.body, { status: answer.status, headers });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The signed-in session that sent a form: its id, and whether its row still lets it in (read only for a replay). */
export interface SubmittingSession {
  id: string;
  stillActive: () => Promise<boolean>;
}

export async function runOnce(
  request: Request,
  db: D1Database,
  sessionOf: (request: Request) => Promise<SubmittingSession | null>,
  now: () => number,
  run: (request: Request) => Promise<Response>,
): Promise<Response> {
  const submissionId = await submissionIdOf(request);
  if (!submissionId) return run(request);
  const session = await sessionOf(request);
  if (!session) return run(request);
  const sessionId = session.id;

  for (let waited = 0; ; waited += WAIT_STEP_MS) {
    const claim = await claimSubmission(db, sessionId, submissionId, now());
    if (claim.kind === "answered") {
      // Read only here: a first send is checked by the action's own guard.
      return (await session.stillActive()) ? replay(claim.answer) : run(request);
    }
    if (claim.kind === "claimed") break;
    if (waited >= MAX_WAIT_MS) {
      return Response.json(
        { message: "That form is still being sent. Wait a moment, then reload the page." },
        { status: 503, headers: { "Retry-After": "5" } },
      );
    }
    await sleep(WAIT_STEP_MS);
  }

  let response: Response;
  try {
    response = await run(request);
  } catch (error) {
    await releaseSubmission(db, sessionId, submissionId);
    throw error;
  }
  const dataRequest = new URL(request.url).pathname.endsWith(".data");
  const succeeded = response.status >= 200 && response.status < 400 && (dataRequest || response.status >= 300);
  const length = Number(response.headers.get("Content-Length") ?? "0");
  // An answer marked no-store holds what is shown once (a new API key): it is never written down, here or anywhere.
  const shownOnce = /\bno-store\b/i.test(response.headers.get("Cache-Control") ?? "");
  if (!succeeded || shownOnce || length > MAX_KEPT_BYTES) {
    await releaseSubmission(db, sessionId, submissionId);
    return response;
  }
  const body = await response.arrayBuffer();
  if (body.byteLength > MAX_KEPT_BYTES) {
    await releaseSubmission(db, sessionId, submissionId);
  } else {
    await answerSubmission(db, sessionId, submissionId, { status: response.status, headers: [...response.headers], body });
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
