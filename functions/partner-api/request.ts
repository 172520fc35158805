// Reading and refusing a Partner API request: the problem+json answers, the body (size, UTF-8, JSON, depth, card
// numbers) and the paths of validation issues. Shared by the router and the handlers it calls.
import type * as v from "valibot";
import { readBodyUpTo } from "../plumbing/http";
import type { BusinessDb, Db } from "../tenancy/tenant";
import { MAX_JSON_DEPTH, scanBody } from "../card-numbers/card-numbers";
import { jsonTextIssues } from "../card-numbers/json-text";
import { MAX_BODY_BYTES, type Problem } from "./schemas";
import { problemResponse, validationProblem, type ProblemCode } from "./problems";

/** A refusal: an RFC 9457 problem with its stable code (./problems.ts), the status the code has. */
export function problem(code: ProblemCode, message: string, errors?: Problem["errors"], headers: Record<string, string> = {}): Response {
  return problemResponse(code, message, errors, headers);
}

export interface ApiDeps {
  /** The core database: the key directory, the business directory, the rate windows. */
  core: D1Database;
  /** A business's database by its directory name (functions/tenancy/shards.ts databaseNamed). */
  database: (name: string) => Db;
  queue: Queue;
  now: () => number;
  waitUntil: (promise: Promise<unknown>) => void;
  /** Requests a minute per key. */
  rateLimitPerMinute: number;
  /** Queues the webhook deliveries a synchronous write (disputes) just committed; the 5-minute sweep sends them otherwise. */
  dispatchWebhooks?: (business: BusinessDb) => Promise<unknown>;
  /** Where dispute evidence is kept (R2 EVIDENCE): POST /api/v1/disputes/{id}/evidence. */
  evidence?: R2Bucket;
  /** The request's id, for the audit log. */
  requestId?: string;
}

/** "payments.3.amount" -> "payments[3].amount": the path a processor's developer reads. */
function jsonPath(issue: v.BaseIssue<unknown>, prefix = ""): string {
  const keys = issue.path?.map((item) => item.key) ?? [];
  const path = keys.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), prefix);
  return path || "(body)";
}

export function issuesOf(issues: readonly v.BaseIssue<unknown>[], prefix = ""): NonNullable<Problem["errors"]> {
  return issues.map((issue) => ({ path: jsonPath(issue, prefix), message: issue.message }));
}

/** A 400 naming every problem of the request (./problems.ts validationProblem). */
export function badRequest(errors: NonNullable<Problem["errors"]>): Response {
  return validationProblem(errors);
}

const tooLarge = () => problem("body_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes. Send at most 100 payments a request.`);

/** The body as text, refused past MAX_BODY_BYTES without reading it all. */
async function readBody(request: Request): Promise<string | Response> {
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_BODY_BYTES) return tooLarge();
  const bytes = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (bytes === null) return tooLarge();
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return problem("body_not_utf8", "The body is not UTF-8 text.");
  }
}

const CARD_NUMBER_MESSAGE = "looks like a full card number (PCI DSS 3.4.1); nothing of this request was stored";

/** Names where each card number was (a JSON path, "URL path", "header idempotency-key"), never the number. */
export function cardNumberRefusal(places: string[]): Response {
  return problem(
    "card_number",
    "The request holds what looks like a full card number. The portal never takes one: send only the card's first six and last four digits.",
    places.map((path) => ({ path, message: CARD_NUMBER_MESSAGE })),
  );
}

/** Parses the JSON body and refuses card numbers before anything else looks at it. Never logs or echoes the body. */
export async function jsonBody(request: Request): Promise<{ text: string; json: unknown } | Response> {
  if (!/^application\/json\b/i.test(request.headers.get("Content-Type") ?? ""))
    return problem("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  const text = await readBody(request);
  if (text instanceof Response) return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return problem("body_not_json", "The body is not valid JSON.");
  }
  // Walked without recursion and only so deep: a body nested thousands of levels deep is refused, not a stack overflow.
  const scan = scanBody(json, MAX_JSON_DEPTH);
  if (scan.tooDeep) return problem("body_too_deep", `The body is nested more than ${MAX_JSON_DEPTH} levels deep; no request of this API needs more than 4.`);
  if (scan.cards.length > 0) return cardNumberRefusal(scan.cards);
  // What JSON.parse drops or quietly keeps: a repeated key's other values (a card number could hide there) and lone surrogates.
  const { repeatedKeys, notWellFormed } = jsonTextIssues(text);
  if (repeatedKeys.length > 0)
    return problem(
      "repeated_key",
      "An object of the body has the same key more than once: send each key once.",
      repeatedKeys.map((path) => ({ path, message: "is repeated in its object; nothing of this request was stored" })),
    );
  if (notWellFormed.length > 0)
    return problem(
      "text_not_well_formed",
      "The body holds text that is not well-formed Unicode (a lone surrogate such as \\ud800).",
      notWellFormed.map((path) => ({ path, message: "is not well-formed Unicode text (a lone surrogate)" })),
    );
  return { text, json };
}
