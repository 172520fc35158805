// A JSON Schema 2020-12 checker for exactly the keywords the Partner API's OpenAPI document uses
// (functions/partner-api/openapi.ts): any other keyword throws, so a new one cannot slip through unchecked. The
// document's unit test (functions/partner-api/openapi.test.ts) holds it to the Worker's valibot schemas; the examples
// test (tests/integration/api-examples.test.ts) holds the portal's answers to the document with it.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The value at a local JSON pointer (#/a/b), or throws. */
function resolveIn(doc: Json, pointer: string): Json {
  if (!pointer.startsWith("#/")) throw new Error(`not a local $ref: ${pointer}`);
  let at: Json = doc;
  for (const part of pointer.slice(2).split("/")) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!at || typeof at !== "object" || Array.isArray(at) || !(key in at)) throw new Error(`unresolved $ref ${pointer}`);
    at = at[key]!;
  }
  return at;
}

const ANNOTATIONS = new Set(["description", "examples", "title"]);

/**
 * JSON Schema's `format` in RFC 3339's sense, checked apart from functions/partner-api/instant.ts: a date-time or date whose
 * day the calendar has (Date.UTC's reckoning), hours 00-23, minutes and offsets in range; a leap second (:60) is
 * RFC 3339's and passes here, so the document's pattern must be what refuses it.
 */
function rfc3339(format: string, value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/.exec(value);
  if (!m || (format === "date-time") !== (m[4] !== undefined)) return false;
  const [year, month, day, hour, minute, second, offH, offM] = m.slice(1).map((x) => Number(x ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day);
  const realDay = date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
  return realDay && hour! <= 23 && minute! <= 59 && second! <= 60 && offH! <= 23 && offM! <= 59;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function isType(value: unknown, type: string): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeOf(value) === type;
}

/** `resolve` reads a local $ref of `doc`; `accepts` says whether a value is valid against a schema of it. */
export function jsonSchemaChecker(doc: Json) {
  const resolve = (pointer: string): Json => resolveIn(doc, pointer);

  /** JSON Schema 2020-12 validation for the keywords the document uses (format is an annotation in 2020-12). */
  function accepts(schema: Json, value: unknown): boolean {
    // `additionalProperties: false` is the boolean schema false.
    if (typeof schema === "boolean") return schema;
    if (!schema || typeof schema !== "object" || Array.isArray(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
    for (const [keyword, rule] of Object.entries(schema)) {
      if (ANNOTATIONS.has(keyword)) continue;
      const ok = (() => {
        switch (keyword) {
          case "$ref":
            return accepts(resolve(rule as string), value);
          case "type":
            return (Array.isArray(rule) ? rule : [rule]).some((type) => isType(value, type as string));
          case "enum":
            return (rule as Json[]).some((item) => item === value);
          case "const":
            return rule === value;
          case "anyOf":
            return (rule as Json[]).some((branch) => accepts(branch, value));
          case "format":
            return typeof value !== "string" || !["date-time", "date"].includes(rule as string) || rfc3339(rule as string, value);
          case "pattern":
            return typeof value !== "string" || new RegExp(rule as string, "u").test(value);
          case "minLength":
            return typeof value !== "string" || [...value].length >= (rule as number);
          case "maxLength":
            return typeof value !== "string" || [...value].length <= (rule as number);
          case "minimum":
            return typeof value !== "number" || value >= (rule as number);
          case "maximum":
            return typeof value !== "number" || value <= (rule as number);
          case "minItems":
            return !Array.isArray(value) || value.length >= (rule as number);
          case "maxItems":
            return !Array.isArray(value) || value.length <= (rule as number);
          case "items":
            return !Array.isArray(value) || value.every((item) => accepts(rule, item));
          case "required":
            return typeOf(value) !== "object" || (rule as string[]).every((key) => Object.hasOwn(value as object, key));
          case "properties":
            return (
              typeOf(value) !== "object" ||
              Object.entries(rule as JsonObject).every(([key, sub]) => !Object.hasOwn(value as object, key) || accepts(sub, (value as JsonObject)[key]))
            );
          case "additionalProperties": {
            if (typeOf(value) !== "object") return true;
            const known = Object.keys((schema.properties as JsonObject | undefined) ?? {});
            return Object.entries(value as JsonObject).every(([key, item]) => known.includes(key) || accepts(rule, item));
          }
          default:
            throw new Error(`the checker does not know the keyword "${keyword}"`);
        }
      })();
      if (!ok) return false;
    }
    return true;
  }

  return { resolve, accepts };
}
