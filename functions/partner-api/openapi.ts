// GET /api/v1/openapi.json: the Partner API described as
// OpenAPI 3.1, generated from the valibot schemas the Worker checks requests
// with (functions/partner-api/schemas.ts), so the document cannot drift from the code.
// What JSON Schema cannot say (valibot's v.check rules across fields) is said in
// words: every check must have its sentence here, or building the document
// throws. functions/partner-api/openapi.test.ts checks the document and the schemas agree.
// Its paths are the operation table's rows (./operations.ts), which the router and the scopes are built from too.
import { toJsonSchemaDefs, type JsonSchema } from "@valibot/to-json-schema";
import { configOf } from "../env";
import { formatOfPattern } from "./instant";
import {
  CARD_SCHEMES,
  CLOCK_SKEW_MS,
  MAX_AMOUNT_PESEWAS,
  MAX_BODY_BYTES,
  MAX_PAYMENT_AGE_MS,
  MAX_PAYMENTS_PER_REQUEST,
  MOBILE_MONEY_NETWORKS,
} from "./schemas";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../lists/page";
import { DAY_MS } from "../plumbing/time";
import { BUSINESS_HEADER, MESSAGES } from "./credential";
import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER } from "./versions";
import { EVENT_DATA, EVENT_EXAMPLES, EVENT_SCHEMAS, eventSchemaName } from "./event-schemas";
import { WEBHOOK_EVENT_TYPES } from "../webhooks/types";
import { PROBLEM_CODES, PROBLEM_CONTENT_TYPE, PROBLEMS, problemType, type ProblemCode, type ProblemError } from "./problems";
import { PLATFORM_SCOPES, SCOPE_WORDS } from "../operators/platform-scopes";
import { BUSINESS, errors, EXAMPLE_IDS, EXAMPLE_TIME, examplePage, examplesAt, json, ref, SCHEMAS, type Schema, type SchemaName } from "./openapi-parts";
import { OPERATIONS } from "./operations";
import type { DocumentParts, Operation } from "./operation";

// What other modules read of the document's pieces, where they have always read them.
export { EXAMPLE_IDS, EXAMPLES, RetryAfter, type SchemaName } from "./openapi-parts";
export { LIST_QUERIES } from "./operations";

const list = (items: readonly string[]) => `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;

/** The rules of the schemas' v.check actions, by the check's message, in words for people. */
export const RULES_IN_WORDS: Record<string, string> = {
  "does not go with the channel": `network goes with channel: ${list(MOBILE_MONEY_NETWORKS)} for mobile_money; ${list(CARD_SCHEMES)} for card.`,
  "card payments need card_bin and card_last4 only; mobile money needs msisdn only":
    "payer holds card_bin and card_last4 (and no msisdn) for a card payment, and msisdn alone for mobile money.",
  "is required for a card payment": "terminal_serial is required for a card payment (card-present).",
  "is required when status is failed, and only then": "failure_reason is required when status is failed, and not allowed otherwise.",
};

const TRIMMED = "Spaces around it are removed first; it must hold more than spaces.";

// Valibot's trim, checks and transforms have no JSON Schema of their own:
// trim (always before minLength(1) here) becomes "holds a non-space", a check
// becomes its rule in words, and the times' and dates' parse (functions/partner-api/instant.ts)
// adds format date-time or date to their pattern: a string both allow is exactly
// one the Worker takes (the pattern fixes the spelling; the format, in JSON Schema's
// RFC 3339 sense, asks for a day and time the calendar has).
function convert(): Record<SchemaName, Schema> {
  // The webhook deliveries' bodies go in too, so they can $ref the payment and the dispute they carry.
  const defs = toJsonSchemaDefs(
    { ...SCHEMAS, ...EVENT_SCHEMAS },
    {
      target: "draft-2020-12",
      errorMode: "throw",
      overrideRef: (context) => `#/components/schemas/${context.referenceId}`,
      overrideAction: (context) => {
        const action = context.valibotAction as { type: string; message?: unknown; requirement?: unknown };
        const schema = context.jsonSchema as Schema;
        if (action.type === "trim") return { ...schema, pattern: "\\S", "x-trim": true } as JsonSchema;
        if (action.type === "raw_transform") {
          const format = formatOfPattern(schema.pattern);
          if (!format) throw new Error("functions/partner-api/openapi.ts: a transform the document cannot describe");
          return { ...schema, format };
        }
        if (action.type === "check" || action.type === "partial_check") {
          const words = typeof action.message === "string" ? RULES_IN_WORDS[action.message] : undefined;
          if (!words) throw new Error(`functions/partner-api/openapi.ts: no words for the check "${String(action.message)}"`);
          return { ...schema, "x-rules": [...(schema["x-rules"] ?? []), words] } as JsonSchema;
        }
        return undefined;
      },
    },
  ) as Record<SchemaName, Schema>;
  return JSON.parse(JSON.stringify(defs), (_key, value: unknown) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return value;
    const { "x-rules": rules, "x-trim": trim, ...rest } = value as Schema;
    const words = [rest.description, trim ? TRIMMED : "", rules ? `Also: ${rules.join(" ")}` : ""].filter(Boolean).join(" ");
    return words ? { ...rest, description: words } : rest;
  }) as Record<SchemaName, Schema>;
}

/** A problem as the API answers it (functions/partner-api/problems.ts), for the document's examples. */
const problemExample = (code: ProblemCode, detail: string, errors?: ProblemError[]) => ({
  type: problemType(EXAMPLE_ORIGIN, code),
  title: PROBLEMS[code].title,
  status: PROBLEMS[code].status,
  code,
  detail,
  message: detail,
  request_id: "7F3K-Q2M9-XD4T",
  ...(errors ? { errors } : {}),
});
const problemJson = (example: unknown) => ({ [PROBLEM_CONTENT_TYPE]: { schema: ref("Problem"), example } });

const EXAMPLE_ORIGIN = "https://portal.example.com";
export const PROBLEM_EXAMPLE = problemExample("validation_failed", "The request has 2 problems.", [
  { path: "payments[0].amount", message: "must be whole pesewas" },
  { path: "payments[1].failure_reason", message: "is required when status is failed, and only then" },
]);

const DEFAULT_RATE_LIMIT_PER_MINUTE = configOf({}).api.rateLimitPerMinute;

export interface DocumentOptions {
  /** Requests a minute per API key (API_RATE_LIMIT_PER_MINUTE, functions/env.ts); the default is the Worker's. */
  rateLimitPerMinute?: number;
  /** The clock the request examples are dated from (examplesAt); EXAMPLE_TIME when left out. */
  now?: number;
}

const rateLimitWords = (perMinute: number) =>
  `Each API key may send at most ${perMinute} requests a minute (a platform key as many for each business it acts for). Over the limit the API answers 429 with Retry-After (seconds): wait that long, ` +
  `then send the same request again (with the same Idempotency-Key). Send up to ${MAX_PAYMENTS_PER_REQUEST} payments in one request rather than many small ones. ` +
  `Every answer carries the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10): \`RateLimit-Policy: "per-key";q=${perMinute};w=60\` ` +
  'and, once the request was counted against a key, `RateLimit: "per-key";r=<requests left>;t=<seconds until the window ends>`.';

const description = (perMinute: number) =>
  [
    "Processors push payments, reversals and terminal heartbeats into the Partners Portal; the portal answers 202 once it has queued them and applies them within seconds.",
    "",
    "**Authentication.** Every request carries `Authorization: Bearer <key>` with one of the business's API keys (Settings → Developers). " +
      "A key is shown once, when it is made; `pp_live_` keys act for the business's live data, `pp_test_` keys only for its test data (Test mode, on every deployment: the two never mix). A rolled key keeps working for 24 hours; a revoked one stops at once. " +
      "No key, or a wrong one, is 401, and the answer says nothing about which businesses exist. " +
      "A suspended business's own keys are refused with 403 until the platform reactivates it; a closed business takes nothing (403).",
    "",
    `**Platform keys.** The switch holds a platform key (\`pp_platform_live_\` or \`pp_platform_test_\`, made by the platform's staff) that acts for any business: ` +
      `each request names the business in the \`${BUSINESS_HEADER}\` header, as Stripe Connect's Stripe-Account does. Without the header it is 400; ` +
      "an id that is no business's is 404. A platform key may do only what its scopes allow, 403 otherwise: " +
      PLATFORM_SCOPES.map((scope) => `\`${scope}\` (${SCOPE_WORDS[scope].toLowerCase()})`).join(", ") +
      ". It still acts for a suspended business, so that money that moved is recorded. " +
      `A business's own key may send \`${BUSINESS_HEADER}\` only with its own business's id (403 otherwise).`,
    "",
    "**Idempotency.** A reference is unique within the business: sending the same payment again is harmless (it is one payment), " +
      "while the same reference with other content is kept aside as a conflict for an administrator and does not change the payment. " +
      "Send an `Idempotency-Key` header to get the first answer again when you retry a request; the same key with another body is 409. " +
      "Keys are kept per business, and a platform key's apart from the business's own keys: the same key sent for two businesses is two requests.",
    "",
    `**Rate limits.** ${rateLimitWords(perMinute)}`,
    "",
    "**Card numbers.** Never send a full card number (PAN). A request whose path, query, headers (Authorization aside) or body (values and keys) holds 13 to 19 digits " +
      "that pass the Luhn check, in any script and with anything but letters between them (spaces, dots, slashes, dashes, zero-width characters), is refused with 400 " +
      "naming where, and nothing of it is stored or logged (PCI DSS 3.4.1). Cards are sent as their BIN (first six digits) and last four. " +
      "Put a letter among every 12 digits of a reference; a date and a serial (PSP-20261123-000187, KFF-261121-0000487) is fine as it is.",
    "",
    "**Times.** A time is RFC 3339 with seconds and a zone: `2026-11-23T10:15:00Z` or `2026-11-23T11:15:00+01:00` (upper-case T and Z, " +
      "the zone as Z or ±HH:MM, up to 9 digits of fraction, cut to the millisecond). A date is `YYYY-MM-DD`. Each must be a day the calendar has " +
      "(no 31 September, no 30 February): anything else is a 400 naming the field, never moved to another day. " +
      `A payment or reversal may say it happened at most ${MAX_PAYMENT_AGE_MS / DAY_MS} days ago, ` +
      `and at most ${CLOCK_SKEW_MS / 60_000} minutes ahead of the portal's clock. Amounts are integer pesewas in GHS, at most ${MAX_AMOUNT_PESEWAS}.`,
    "",
    "**Versions.** The API is versioned by date. Each key answers as the version that was current when it was made (a rolled key keeps its " +
      `predecessor's); send \`${VERSION_HEADER}: <date>\` to be answered as another. Every answer names its version in \`${VERSION_HEADER}\`. ` +
      `Versions: ${API_VERSIONS.join(", ")}. docs/api-changelog.md says what each one changed; a change that could break your code only ever comes with a new date.`,
    "",
    "**Errors.** Every refusal is an RFC 9457 problem (`application/problem+json`): `type` links to the code's explanation in the API reference, " +
      "`code` is stable (branch on it, not on the words), `detail` says what went wrong with this request, `request_id` is what to quote to support, and a 400 " +
      `lists \`errors\`. The codes: ${PROBLEM_CODES.map((code) => `\`${code}\` (${PROBLEMS[code].status})`).join(", ")}.`,
    "",
    "**Validation.** A 400 lists every problem of the request with its JSON path (`payments[3].merchant`): a missing field `is required`, " +
      "an unknown one `is not a documented field`. A merchant, point of sale or terminal that is not this business's is answered exactly as an " +
      "unknown one, whoever it belongs to.",
    "",
    "**Webhooks.** The portal calls the business's endpoints on payment.succeeded, payment.failed, payment.reversed, settlement.paid, settlement.failed, " +
      "transfer.approved, transfer.rejected, refund.succeeded, refund.failed, approval.requested, terminal.silent, dispute.opened and dispute.closed. " +
      "Each call is signed the [Standard Webhooks](https://www.standardwebhooks.com/) way (`webhook-id` = the event id, `webhook-timestamp`, `webhook-signature`), " +
      "so its libraries and Svix's verify it given the endpoint's secret as shown (`whsec_...`). It is also signed the portal's own way: its `PP-Signature` header is " +
      '`t=<unix seconds>,v1=<hex>`, the hex being `HMAC-SHA256(secret, timestamp + "." + body)` over the raw body, keyed with the endpoint\'s secret (`whsec_...`). ' +
      "While a secret is being rolled a second `v1=` is made with the previous one: accept the call when any `v1=` matches. Compare in constant time, " +
      "refuse a timestamp more than 5 minutes from your clock, and de-duplicate on the event's id (`PP-Event-Id`): a call may come more than once. " +
      "Each endpoint is pinned to the version current when it was made, and every delivery's body is in that version's shapes: the `webhooks` section " +
      "shows the current version's, where each event's data is the object as GET answers it; endpoints pinned to 2026-11-27 get the older shapes " +
      "docs/api-changelog.md lists. docs/webhooks.md has the details and a receiver.",
  ].join("\n");

const responsesFor = (perMinute: number) => ({
  BadRequest: {
    description:
      "The request is not valid: every problem is listed with its JSON path. A field that looks like a full card number is one of them. " +
      `A platform key without the ${BUSINESS_HEADER} header is 400 too.`,
    content: problemJson(PROBLEM_EXAMPLE),
  },
  Unauthorized: {
    description: "No API key, or not a live key of any business (revoked, expired after a roll, or never made). The answer says nothing more.",
    content: problemJson(problemExample("unauthorized", MESSAGES.unauthorized)),
  },
  NotFound: {
    description:
      `No such payment, terminal, dispute, refund or event in this business (another business's reads the same); with a platform key, also a ${BUSINESS_HEADER} ` +
      "that names no business.",
    content: problemJson(problemExample("payment_not_found", "No payment with that reference.")),
  },
  Forbidden: {
    description:
      "The key may not do this for this business: the operation is outside a platform key's scopes, the business is closed, " +
      `the business is suspended (its own keys; a platform key still acts for it), or a business's own key named another business in ${BUSINESS_HEADER}.`,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: ref("Problem"),
        examples: {
          scope: { summary: "Outside the key's scopes", value: problemExample("out_of_scope", MESSAGES.outOfScope("disputes")) },
          suspended: { summary: "A suspended business's own key", value: problemExample("business_suspended", MESSAGES.suspended) },
          closed: { summary: "A closed business", value: problemExample("business_closed", MESSAGES.closed) },
          otherBusiness: { summary: "A business's key naming another business", value: problemExample("not_your_business", MESSAGES.notYourBusiness) },
        },
      },
    },
  },
  Conflict: {
    description: "The Idempotency-Key was already used with another request.",
    content: problemJson(
      problemExample("idempotency_key_reused", "This Idempotency-Key was already used with another request. Use a new key for a new request."),
    ),
  },
  TooLarge: {
    description: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB (${MAX_PAYMENTS_PER_REQUEST} payments take about 60 kB).`,
    content: problemJson(problemExample("body_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes. Send at most 100 payments a request.`)),
  },
  UnsupportedMediaType: {
    description: "The body is not sent as Content-Type: application/json.",
    content: problemJson(problemExample("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.")),
  },
  TooManyRequests: {
    description: rateLimitWords(perMinute),
    headers: { "Retry-After": ref("RetryAfter", "headers") },
    content: problemJson(problemExample("rate_limited", `Too many requests for this key: at most ${perMinute} a minute.`)),
  },
});

/**
 * A list's query parameters, one for each property of its query schema, as the Worker reads them. The limit is
 * written in digits, so it is shown as the integer it is (1 to 100); openapi.test.ts checks both say the same.
 */
function listParameters(schemas: Record<SchemaName, Schema>, query: SchemaName) {
  const properties = (schemas[query] as { properties?: Record<string, Schema> }).properties ?? {};
  return [
    BUSINESS,
    ...Object.entries(properties).map(([name, schema]) => {
      const resolved = schema.$ref ? schemas[schema.$ref.split("/").at(-1) as SchemaName] : schema;
      return {
        name,
        in: "query",
        required: false,
        description: resolved.description ?? "",
        schema: name === "limit" ? { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } : schema,
      };
    }),
  ];
}

const LIST_WORDS =
  "A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; " +
  "the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while " +
  "nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 " +
  "naming each as `query.<name>`.";

/**
 * Who may call an operation: a business's own key, or a platform key holding the operation's scope (OpenAPI 3.1 lets
 * any scheme list the roles an operation needs).
 */
const securedFor = ({ access }: Operation) => (access === "business-key" ? [{ apiKey: [] }] : [{ apiKey: [] }, { platformKey: [access] }]);

/** An operation of the table as the document describes it; a list's parameters, page and refusals are every list's. */
function describe(operation: Operation, parts: DocumentParts) {
  const { list } = operation;
  return {
    operationId: operation.operationId,
    security: securedFor(operation),
    tags: [operation.tag],
    summary: operation.summary,
    description: list ? `${operation.description} ${LIST_WORDS}` : operation.description,
    parameters: list ? listParameters(parts.schemas, list.query) : (operation.parameters?.(parts) ?? []),
    ...(operation.request ? { requestBody: { required: true, content: operation.request(parts) } } : {}),
    responses: list
      ? {
          "200": { description: "A page of them.", content: json(list.page, examplePage(list.example)) },
          ...errors("BadRequest", "Unauthorized", "TooManyRequests"),
        }
      : { ...operation.answers?.(parts), ...errors(...(operation.errors ?? [])) },
  };
}

/** The document's paths: the table's operations by path, in the table's order. */
function pathsOf(parts: DocumentParts) {
  const paths: Record<string, Record<string, ReturnType<typeof describe>>> = {};
  for (const operation of OPERATIONS as readonly Operation[]) (paths[operation.path] ??= {})[operation.method.toLowerCase()] = describe(operation, parts);
  return paths;
}

/** The headers every webhook delivery carries (docs/webhooks.md). */
const WEBHOOK_HEADERS = [
  ["webhook-id", "The event's id (evt_...): the same on every retry. Standard Webhooks."],
  ["webhook-timestamp", "When this attempt was signed, in Unix seconds. Standard Webhooks."],
  [
    "webhook-signature",
    'Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks.',
  ],
  ["PP-Signature", 't=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal\'s own signature of the same body.'],
  ["PP-Event-Id", "The event's id, again."],
  ["PP-Event-Type", "The event's type, again."],
].map(([name, description]) => ({ name, in: "header", required: true, description, schema: { type: "string" } }));

/** OpenAPI 3.1's webhooks: what the portal POSTs to a business's endpoints, one entry per event type. */
function webhooksSection() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          tags: ["Events"],
          summary: type,
          description: `${EVENT_DATA[type][1]} The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).`,
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: json(eventSchemaName(type) as SchemaName, EVENT_EXAMPLES[type]) },
          responses: {
            "200": {
              description:
                "Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled.",
            },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of the Partner API, with `origin` as its server. */
export function openApiDocument(origin: string, options: DocumentOptions = {}) {
  const perMinute = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const examples = examplesAt(options.now ?? EXAMPLE_TIME);
  const schemas = convert();
  return withVersionParameter({
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    // The document describes the newest version; docs/api-changelog.md says what each changed.
    info: { title: "Partners Portal Partner API", version: CURRENT_API_VERSION, description: description(perMinute) },
    servers: [{ url: origin, description: "This portal" }],
    webhooks: webhooksSection(),
    security: [{ apiKey: [] }],
    tags: [
      { name: "Payments", description: "Payments and their reversals." },
      { name: "Terminals", description: "POS terminals' heartbeats." },
      { name: "Disputes", description: "Disputes a scheme or network raised on payments: opened and closed by the processor." },
      { name: "Merchants", description: "The business's merchants and their points of sale: what a payment names." },
      { name: "Money out", description: "Settlements paid to merchants, and refunds of payments." },
      { name: "Events", description: "The events feed (what the webhooks announce, kept 30 days) and sending failed webhook deliveries again." },
    ],
    paths: pathsOf({ examples, schemas }),
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pp_live_ or pp_test_ and 32 letters and digits",
          description: "A business's API key, made in Settings → Developers. It acts for its own business only.",
        },
        platformKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pp_platform_live_ or pp_platform_test_ and 32 letters and digits",
          description:
            `The switch's platform key, made by the platform's staff: it acts for the business named in the ${BUSINESS_HEADER} header, ` +
            `within its scopes (${PLATFORM_SCOPES.join(", ")}); each operation lists the scope it needs.`,
        },
      },
      parameters: {
        business: {
          name: BUSINESS_HEADER,
          in: "header",
          required: false,
          description:
            "The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); " +
            "a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods.",
          schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,100}$" },
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: schemas.IdempotencyKey.description,
          schema: ref("IdempotencyKey"),
        },
        reference: {
          name: "reference",
          in: "path",
          required: true,
          description: schemas.Reference.description,
          schema: ref("Reference"),
          example: EXAMPLE_IDS.payment,
        },
        serial: {
          name: "serial",
          in: "path",
          required: true,
          description: "The terminal's serial.",
          schema: ref("TerminalSerial"),
          example: EXAMPLE_IDS.terminalSerial,
        },
        version: {
          name: VERSION_HEADER,
          in: "header",
          required: false,
          description:
            `The dated API version to answer as: one of ${API_VERSIONS.join(", ")}. Without it, the version the key was made with ` +
            "(a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version.",
          schema: { type: "string", enum: [...API_VERSIONS] },
        },
      },
      headers: {
        RetryAfter: { description: schemas.RetryAfter.description, schema: ref("RetryAfter") },
      },
      responses: responsesFor(perMinute),
    },
  });
}

/** PP-Version on every operation but the public document itself, without repeating it in each. */
function withVersionParameter<T extends { paths: Record<string, Record<string, { parameters?: unknown[] }>> }>(doc: T): T {
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path.endsWith("/openapi.json")) continue;
    for (const operation of Object.values(item)) operation.parameters = [...(operation.parameters ?? []), ref("version", "parameters")];
  }
  return doc;
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
