// What a row of the Partner API's operations table (./operations.ts) is: the shape every row has, wherever it is kept
// (a domain keeps the rows whose handlers are its own, beside them: functions/payments/partner-api.ts and the like),
// and the parameters and refusals rows share.
import type { ApiDeps } from "./request";
import type { Access, Credential } from "./credential";
import type { ApiVersion } from "./versions";
import type { examplesAt, ResponseName, Schema, SchemaName } from "./openapi-parts";

/** What a handler is given once the door let the request in: who called, for which business, as which version. */
export interface ApiCall {
  deps: ApiDeps;
  credential: Credential;
  version: ApiVersion;
  /** The path's parameters by their name in the path ({reference}, {serial}, {id}), decoded. */
  params: Record<string, string>;
}

/** What the document's description of an operation may draw on: its request examples (dated) and the schemas. */
export interface DocumentParts {
  examples: ReturnType<typeof examplesAt>;
  schemas: Record<SchemaName, Schema>;
}

export interface Operation {
  /** The operation's short name: what the platform key's scopes are listed by. */
  name: string;
  method: "GET" | "POST";
  /** As the document writes it: each {parameter} is one path segment. */
  path: `/api/v1/${string}`;
  operationId: string;
  access: Access;
  tag: string;
  summary: string;
  description: string;
  /** A list with cursors: the document lists its query schema's parameters and answers a page of them. */
  list?: { query: SchemaName; page: SchemaName; example: unknown };
  parameters?: (parts: DocumentParts) => unknown[];
  /** The request body's media types and schemas (always required). */
  request?: (parts: DocumentParts) => Record<string, unknown>;
  /** The answers when it goes well, by status. */
  answers?: (parts: DocumentParts) => Record<string, unknown>;
  /** The refusals it may give besides the door's (every operation may be 400, 401, 403 and 404 at the door). */
  errors?: readonly ResponseName[];
  handler: (request: Request, call: ApiCall) => Promise<Response>;
}

export const idParameter = (description: string, example: string) => ({
  name: "id",
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
  example,
});
export const WRITE_ERRORS = ["BadRequest", "Unauthorized", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"] as const;
export const READ_ERRORS = ["Unauthorized", "NotFound", "TooManyRequests"] as const;
export const PAGE_ERRORS = ["BadRequest", "Unauthorized", "TooManyRequests"] as const;
