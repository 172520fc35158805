// The /developers/api page's data: the OpenAPI document (functions/partner-api/openapi.ts)
// read into plain endpoints, fields and answers, on the server, so the page says
// what the API checks and the browser gets no server code (decision 014).
import { openApiDocument, RULES_IN_WORDS, type DocumentOptions } from "#server/partner-api/openapi";
import { PROBLEM_CODES, problemAnchor, PROBLEMS } from "#server/partner-api/problems";

/** The parts of the document's JSON Schemas, parameters, responses and operations that the page reads. */
interface Node {
  $ref?: string;
  type?: string;
  const?: string | number;
  enum?: (string | number)[];
  anyOf?: Node[];
  items?: Node;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Node>;
  required?: string[] | boolean;
  description?: string;
  name?: string;
  in?: string;
  schema?: Node;
  example?: unknown;
  content?: Record<string, { schema?: Node; example?: unknown; examples?: Record<string, { value: unknown }> }>;
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  parameters?: Node[];
  requestBody?: Node;
  responses: Record<string, Node>;
}

export interface ReferenceField {
  name: string;
  type: string;
  required: boolean;
  limits: string[];
  description: string;
}

export interface ReferenceBody {
  title: string;
  note: string;
  /** Rules across fields, which the field list cannot show. */
  rules: string[];
  fields: ReferenceField[];
}

export interface ReferenceEndpoint {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: ReferenceField[];
  bodies: ReferenceBody[];
  answers: { status: string; description: string; body: string }[];
  /** What a 200 answer holds. */
  returns: ReferenceBody | null;
  curl: string;
}

export interface ReferenceSection {
  title: string;
  text: string;
}

export interface Reference {
  title: string;
  intro: string;
  sections: ReferenceSection[];
  endpoints: ReferenceEndpoint[];
  /** Every problem code an answer may carry: each problem's `type` links to its entry here. */
  problems: { code: string; anchor: string; status: number; title: string; explanation: string }[];
  documentUrl: string;
}

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];

function describeType(schema: Node): string {
  if (schema.$ref) return schema.$ref.split("/").at(-1)!;
  if (schema.anyOf) return schema.anyOf.map(describeType).join(" or ");
  if (schema.const !== undefined) return `"${schema.const}"`;
  if (schema.enum) return `one of ${schema.enum.map((item) => `"${item}"`).join(", ")}`;
  if (schema.type === "array" && schema.items) return `list of ${describeType(schema.items)}`;
  if (schema.format === "date-time") return "string (date-time)";
  return schema.type ?? "any";
}

function limitsOf(schema: Node): string[] {
  const limits: string[] = [];
  const { minLength, maxLength, minimum, maximum, minItems, maxItems, pattern } = schema;
  if (minLength !== undefined || maxLength !== undefined) limits.push(`${minLength ?? 0} to ${maxLength ?? "any number of"} characters`);
  if (minimum !== undefined || maximum !== undefined) limits.push(`${minimum ?? "any"} to ${maximum ?? "any"}`);
  if (minItems !== undefined || maxItems !== undefined) limits.push(`${minItems ?? 0} to ${maxItems ?? "any number of"} items`);
  // The timestamp's pattern is long and said better in words (the description gives the form).
  if (typeof pattern === "string" && schema.format !== "date-time" && pattern !== "\\S") limits.push(`matches ${pattern}`);
  return limits;
}

export function buildReference(origin: string, options: DocumentOptions = {}): Reference {
  const doc = openApiDocument(origin, options);
  const resolve = (node: Node): Node => {
    if (!node.$ref) return node;
    let at: unknown = doc;
    for (const part of node.$ref.slice(2).split("/")) at = (at as Record<string, unknown>)[part];
    return resolve(at as Node);
  };

  /** An object schema's fields, nested objects as `payer.msisdn`. */
  const fieldsOf = (schema: Node, prefix = ""): ReferenceField[] => {
    const object = resolve(schema);
    const required = Array.isArray(object.required) ? object.required : [];
    return Object.entries(object.properties ?? {}).flatMap(([name, property]) => {
      const resolved = resolve(property);
      const field: ReferenceField = {
        name: `${prefix}${name}`,
        type: resolved.type === "object" ? "object" : describeType(resolved),
        required: required.includes(name),
        limits: limitsOf(resolved),
        description: property.description ?? resolved.description ?? "",
      };
      return resolved.type === "object" && resolved.properties ? [field, ...fieldsOf(resolved, `${field.name}.`)] : [field];
    });
  };

  const bodiesOf = (schema: Node): ReferenceBody[] => {
    const resolved = resolve(schema);
    if (Array.isArray(resolved.anyOf)) return resolved.anyOf.flatMap(bodiesOf);
    const name =
      String(schema.$ref ?? "")
        .split("/")
        .at(-1) ?? "";
    const description = String(resolved.description ?? "");
    const rules = Object.values(RULES_IN_WORDS).filter((words) => description.includes(words));
    return [{ title: name, note: description.split(" Also: ")[0]!, rules, fields: fieldsOf(resolved) }];
  };

  const endpoints = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]): ReferenceEndpoint => {
        const resolvedParameters = (operation.parameters ?? []).map(resolve);
        const parameters = resolvedParameters.map((p) => ({
          name: `${p.name} (${p.in === "path" ? "in the path" : p.in === "query" ? "in the query" : "header"})`,
          type: describeType(resolve(p.schema ?? {})),
          required: p.required === true,
          limits: limitsOf(resolve(p.schema ?? {})),
          description: p.description ?? "",
        }));
        const media = operation.requestBody?.content?.["application/json"];
        const example = media ? (media.example ?? Object.values(media.examples ?? {})[0]?.value) : undefined;
        const answers = Object.entries(operation.responses).map(([status, response]) => {
          const resolved = resolve(response);
          const schema = resolved.content?.["application/json"]?.schema ?? {};
          return { status, description: resolved.description ?? "", body: describeType(schema), schema };
        });
        const ok = answers.find((answer) => answer.status === "200");
        return {
          id: operation.operationId,
          method: method.toUpperCase(),
          path,
          summary: operation.summary,
          description: operation.description,
          parameters,
          bodies: media?.schema ? bodiesOf(media.schema) : [],
          answers: answers.map(({ schema: _schema, ...answer }) => answer),
          returns: ok?.schema ? (bodiesOf(ok.schema)[0] ?? null) : null,
          curl: curlFor(
            origin,
            method,
            path,
            Object.fromEntries(
              resolvedParameters
                .filter((p) => p.in === "path")
                .map((p): [string, string] => [p.name ?? "", typeof p.example === "string" ? p.example : (p.name ?? "")]),
            ),
            example,
            operation.requestBody?.content?.["multipart/form-data"] !== undefined,
          ),
        };
      }),
  );

  // The document's description is paragraphs; those that start "**Title.**" become the page's sections.
  const paragraphs = String(doc.info.description).split(/\n\n+/);
  const sections = paragraphs.flatMap((paragraph) => {
    const match = /^\*\*(.+?)\.\*\*\s*(.*)$/s.exec(paragraph);
    return match ? [{ title: match[1]!, text: match[2]! }] : [];
  });
  const intro = paragraphs.filter((paragraph) => !paragraph.startsWith("**")).join(" ");
  const problems = PROBLEM_CODES.map((code) => ({ code, anchor: problemAnchor(code), ...PROBLEMS[code] }));
  return { title: doc.info.title, intro, sections, endpoints, problems, documentUrl: "/api/v1/openapi.json" };
}

/** The path filled with each parameter's example: the document's examples name records of the demo data (openapi.ts EXAMPLE_IDS). */
function curlFor(origin: string, method: string, path: string, pathValues: Record<string, string>, example: unknown, fileUpload = false): string {
  const url = origin + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? name));
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ${url}`, `  -H "Authorization: Bearer $PP_API_KEY"`];
  if (example !== undefined) {
    const body = JSON.stringify(example, null, 2).replace(/'/g, "'\\''");
    lines.push(`  -H "Content-Type: application/json"`, `  -H "Idempotency-Key: $(uuidgen)"`, `  -d '${body}'`);
  }
  // A file goes as multipart/form-data, one part named file; curl -F sets the type and boundary.
  if (fileUpload) lines.push(`  -F "file=@receipt.pdf"`);
  return lines.join(" \\\n");
}
