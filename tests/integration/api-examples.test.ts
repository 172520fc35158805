// Examples that work, as an integrator copies them (decision 044). Every request example of the OpenAPI document the portal serves, and every
// curl command of docs/partner-api.md, is sent as it is written (the key a person makes and the portal's address put
// in for the placeholders, nothing else) to a portal holding what a fresh `npm start` holds: its state prepared by
// the very function `npm start` runs (scripts/lib/start-state.ts: the migrations, the demo seed made now, the build
// id), then a development key made as scripts/simulate makes one, in an administrator's name. Each answer must have
// the documented status and match the documented schema; a problem the docs show after a request must be the answer.
// The document's examples are sent in its order to one portal, the docs' in theirs to another made from the same state.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "#server/partner-api/openapi";
import { prepareStartState } from "../../scripts/lib/start-state";
import { makeDevelopmentKey, readWorld } from "../../scripts/simulate/local";
import { jsonSchemaChecker, type Json, type JsonObject } from "../support/json-schema";
import { eventually } from "../support/partner-api";
import { paymentsConsumers, ROOT, startPortal, type Portal } from "../support/portal";
import { KUMASI } from "../support/tenants";

const run = promisify(execFile);

/** The placeholders the examples are written with, and what a person puts in their place. */
const DOCUMENTED_KEY = "pp_live_…";
const DOCUMENTED_ORIGIN = "https://portal.example.com";
const DOCS = join(ROOT, "docs/partner-api.md");
/** What `curl -F "file=@receipt.pdf"` sends: a file of the reader's, here a small PDF. */
const RECEIPT = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

const state = mkdtempSync(join(tmpdir(), "pp-examples-"));
/** Where the docs' commands run: receipt.pdf, and a .curlrc that makes curl print the type and status after the body. */
const shell = mkdtempSync(join(tmpdir(), "pp-examples-shell-"));
const portals: Portal[] = [];

interface Started {
  portal: Portal;
  key: string;
}

/** A portal on a copy of the prepared state, with the Partner API's queue consumed as wrangler.toml does, and a new key. */
async function start(): Promise<Started> {
  const portal = await startPortal({ template: state, queueConsumers: paymentsConsumers() });
  portals.push(portal);
  const db = await portal.db();
  const key = await makeDevelopmentKey(db, KUMASI, await readWorld(db, KUMASI), "Trying the examples");
  return { portal, key };
}

beforeAll(async () => {
  expect(await prepareStartState(state)).toBe(true);
  writeFileSync(join(shell, "receipt.pdf"), RECEIPT);
  writeFileSync(join(shell, ".curlrc"), 'silent\nshow-error\nnoproxy = "*"\nmax-time = 30\nwrite-out = "\\n%{content_type}\\n%{http_code}"\n');
}, 120_000);

afterAll(async () => {
  for (const portal of portals) await portal.dispose();
  rmSync(state, { recursive: true, force: true });
  rmSync(shell, { recursive: true, force: true });
});

// ---------------------------------------------------------------- the document, as the portal serves it

type Operation = JsonObject & { operationId: string; parameters?: JsonObject[]; requestBody?: JsonObject; responses: JsonObject };
const METHODS = ["get", "post", "put", "patch", "delete"];

function operationsOf(doc: JsonObject): { path: string; method: string; operation: Operation }[] {
  return Object.entries(doc.paths as JsonObject).flatMap(([path, item]) =>
    Object.entries(item as JsonObject)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

/** The status a working example gets: the operation's success, or of two (a heartbeat's 200 "not applied"), the applied 202. */
function successOf(operation: Operation): string {
  const ok = Object.keys(operation.responses).filter((status) => /^2/.test(status));
  if (ok.length === 1) return ok[0]!;
  if (ok.includes("202")) return "202";
  throw new Error(`${operation.operationId} documents ${ok.join(", ")}: say which one its examples get`);
}

/** The answer's status is the one expected, and its body is what the document says that answer holds. */
async function expectDocumented(doc: JsonObject, operation: Operation, response: Response, expected: string, what: string): Promise<unknown> {
  const { resolve, accepts } = jsonSchemaChecker(doc);
  const text = await response.text();
  expect(`${response.status} ${text}`, what).toMatch(new RegExp(`^${expected} `));
  const documented = operation.responses[expected] as JsonObject;
  const answer = (documented.$ref ? resolve(documented.$ref as string) : documented) as JsonObject;
  const [mediaType, media] = Object.entries(answer.content as JsonObject)[0]!;
  expect(response.headers.get("Content-Type") ?? "", what).toContain(mediaType);
  const body = JSON.parse(text) as unknown;
  expect(accepts((media as JsonObject).schema as Json, body), `${what}: ${text} does not match ${JSON.stringify((media as JsonObject).schema)}`).toBe(true);
  return body;
}

const pointer = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** Every place that holds an example (an OpenAPI `example`, or `examples` by name; not a JSON Schema's list), as a JSON pointer. */
function examplePlaces(node: Json, at = ""): string[] {
  if (!node || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => examplePlaces(item, `${at}/${i}`));
  const here = "example" in node || ("examples" in node && !Array.isArray(node.examples)) ? [at] : [];
  const inside = Object.entries(node).flatMap(([key, value]) => (key === "examples" || key === "example" ? [] : examplePlaces(value, `${at}/${pointer(key)}`)));
  return [...here, ...inside];
}

describe("the OpenAPI document's examples, against a fresh npm start", () => {
  let started: Started;
  let doc: JsonObject;
  beforeAll(async () => {
    started = await start();
    const response = await started.portal.fetch("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    doc = await response.json<JsonObject>();
  }, 120_000);

  it("every operation, with each of its request examples and its path parameters' examples, gets its documented answer", async () => {
    const { portal, key } = started;
    const { resolve, accepts } = jsonSchemaChecker(doc);
    const used = new Set<string>();
    const sent: string[] = [];
    const references: string[] = [];
    const reversed: string[] = [];
    for (const [index, { path, method, operation }] of operationsOf(doc).entries()) {
      const at = `/paths/${pointer(path)}/${method}`;
      // Each parameter's example goes where the parameter goes: the path, the query or a header.
      const parameters = (operation.parameters ?? []).map((parameter, i) => {
        const ref = parameter.$ref as string | undefined;
        used.add(ref ? ref.slice(1) : `${at}/parameters/${i}`);
        return (ref ? resolve(ref) : parameter) as JsonObject;
      });
      const text = (value: Json | undefined) => (typeof value === "string" ? value : JSON.stringify(value));
      const headers = Object.fromEntries(parameters.filter((p) => p.in === "header" && "example" in p).map((p) => [p.name as string, text(p.example)]));
      let url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const parameter = parameters.find((p) => p.in === "path" && p.name === name);
        expect(parameter?.example, `${method} ${path}: {${name}} has no example`).toEqual(expect.any(String));
        return encodeURIComponent(parameter!.example as string);
      });
      const query = parameters.filter((p) => p.in === "query" && "example" in p);
      if (query.length > 0) url += `?${new URLSearchParams(query.map((p) => [p.name as string, text(p.example)]))}`;

      // The bodies: each JSON example, or the file a multipart operation takes, or none.
      const content = (operation.requestBody?.content ?? {}) as JsonObject;
      const bodies: { name: string; body?: BodyInit; type?: string }[] = [];
      for (const [mediaType, media] of Object.entries(content) as [string, JsonObject][]) {
        const place = `${at}/requestBody/content/${pointer(mediaType)}`;
        if (mediaType === "application/json") {
          if ("example" in media) bodies.push({ name: "example", body: JSON.stringify(media.example), type: mediaType });
          for (const [name, example] of Object.entries((media.examples ?? {}) as JsonObject))
            bodies.push({ name, body: JSON.stringify((example as JsonObject).value), type: mediaType });
          used.add(place);
        } else if (mediaType === "multipart/form-data") {
          // As the reference page's curl sends it: -F "file=@receipt.pdf".
          const form = new FormData();
          form.set("file", new File([RECEIPT], "receipt.pdf", { type: "application/pdf" }));
          const encoded = new Request(portal.url, { method: "POST", body: form });
          bodies.push({ name: "receipt.pdf", body: await encoded.arrayBuffer(), type: encoded.headers.get("Content-Type")! });
          expect("example" in media || "examples" in media, `${place}: a multipart example the test does not send`).toBe(false);
        } else {
          throw new Error(`${method} ${path} takes ${mediaType}: send its examples here`);
        }
      }
      if (bodies.length === 0) bodies.push({ name: "no body" });

      for (const { name, body, type } of bodies) {
        const what = `#${index + 1} ${method.toUpperCase()} ${url} (${name})`;
        const response = await portal.fetch(url, {
          method: method.toUpperCase(),
          headers: { ...headers, Authorization: `Bearer ${key}`, ...(type ? { "Content-Type": type } : {}) },
          ...(body === undefined ? {} : { body }),
        });
        await expectDocumented(doc, operation, response, successOf(operation), what);
        sent.push(what);
        if (operation.operationId === "reversePayment") reversed.push(decodeURIComponent(url.split("/")[4]!));
        if (operation.operationId === "sendPayments") {
          const parsed = JSON.parse(body as string) as { reference?: string; payments?: { reference: string }[] };
          references.push(...(parsed.payments ?? [parsed]).map((payment) => payment.reference!));
        }
      }
    }

    // Every example the document holds was sent or read: a request body's, a parameter's; an answer's is checked
    // against its schema here (as openapi.test.ts checks the examples dated at a fixed time).
    const places = [...examplePlaces(doc.paths as Json, "/paths"), ...examplePlaces(doc.components as Json, "/components")];
    for (const place of places) {
      if (/\/responses\/[^/]+\/content\/[^/]+$/.test(place) || /^\/components\/responses\/[^/]+\/content\/[^/]+$/.test(place)) {
        const media = resolve(`#${place}`);
        const { schema, example, examples } = media as JsonObject;
        const values = example === undefined ? Object.values((examples ?? {}) as JsonObject).map((item) => (item as JsonObject).value) : [example];
        for (const value of values) expect(accepts(schema as Json, value), `${place}: ${JSON.stringify(value)}`).toBe(true);
        continue;
      }
      expect(used.has(place), `${place} holds an example this test does not send`).toBe(true);
    }
    // One request per operation without a body, one per example of each that has one.
    expect(sent.length, sent.join("\n")).toBeGreaterThanOrEqual(operationsOf(doc).length + 1);

    // What was answered 202 was applied, not set aside: the payments sent are there, the card payment reversed.
    for (const reference of new Set(references)) {
      await eventually(
        async () => (await portal.fetch(`/api/v1/payments/${reference}`, { headers: { Authorization: `Bearer ${key}` } })).status === 200,
        15_000,
        reference,
      );
    }
    expect(reversed.length).toBeGreaterThan(0);
    for (const reference of reversed) {
      await eventually(
        async () => {
          const payment = await portal.fetch(`/api/v1/payments/${reference}`, { headers: { Authorization: `Bearer ${key}` } });
          return (await payment.json<{ status: string }>()).status === "reversed";
        },
        15_000,
        `the reversal of ${reference} applied`,
      );
    }
    const rejections = await portal.fetch("/api/v1/rejections", { headers: { Authorization: `Bearer ${key}` } });
    expect(await rejections.json()).toEqual({ data: [], next: null });
  }, 120_000);
});

// ---------------------------------------------------------------- docs/partner-api.md

interface Block {
  language: string;
  text: string;
  /** The next block, when nothing but blank lines stands between them. */
  next: Block | null;
}

function blocksOf(markdown: string): Block[] {
  const blocks: (Block & { start: number; end: number })[] = [];
  for (const match of markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    blocks.push({ language: match[1]!.trim(), text: match[2]!, next: null, start: match.index, end: match.index + match[0].length });
  }
  blocks.forEach((block, i) => {
    const after = blocks[i + 1];
    if (after && markdown.slice(block.end, after.start).trim() === "") block.next = after;
  });
  return blocks;
}

/** The method and path a curl command sends, read from its URL and options. */
function requestOf(command: string): { method: string; path: string } {
  const url = new RegExp(`${DOCUMENTED_ORIGIN.replaceAll(".", "\\.")}(/[^\\s"'\\\\]*)`).exec(command);
  if (!url) throw new Error(`a curl command with no ${DOCUMENTED_ORIGIN} URL: ${command}`);
  const explicit = /(?:^|\s)-X\s+(\w+)/.exec(command);
  const method = explicit ? explicit[1]! : /(?:^|\s)(?:-d|--data\S*|-F|--form)\s/.test(command) ? "POST" : "GET";
  return { method: method.toLowerCase(), path: new URL(url[1]!, DOCUMENTED_ORIGIN).pathname };
}

/** Runs the command with bash and curl as a reader would, with the key and the portal's address put in. */
async function send(command: string, { portal, key }: Started): Promise<Response> {
  const script = command.replaceAll(DOCUMENTED_KEY, key).replaceAll(DOCUMENTED_ORIGIN, portal.url);
  const { stdout } = await run("bash", ["-c", script], { cwd: shell, env: { ...process.env, CURL_HOME: shell }, timeout: 60_000 });
  const lines = stdout.split("\n");
  const status = Number(lines.pop());
  const type = lines.pop() ?? "";
  return new Response(lines.join("\n"), { status, headers: { "Content-Type": type } });
}

describe("docs/partner-api.md's examples, against a fresh npm start", () => {
  const blocks = blocksOf(readFileSync(DOCS, "utf8"));
  const answers = new Set(blocks.filter((block) => block.language === "sh" && block.next?.language === "json").map((block) => block.next));

  it("shows requests as curl commands only: every other block is an answer or a shape, in no language the test does not read", () => {
    const doc = openApiDocument(DOCUMENTED_ORIGIN) as unknown as JsonObject;
    const { accepts } = jsonSchemaChecker(doc);
    const requestSchemas = operationsOf(doc).flatMap(({ operation }) =>
      Object.values((operation.requestBody?.content ?? {}) as JsonObject).map((media) => (media as JsonObject).schema as Json),
    );
    expect(blocks.filter((block) => block.language === "sh").length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) {
      expect(["", "sh", "json"], block.text).toContain(block.language);
      if (block.language === "sh") expect(block.text, "a shell block that is not one curl command").toMatch(/^curl /);
      // A JSON body the API takes, shown on its own, is an example no test sends: show it as a curl command.
      if (block.language === "json" && !answers.has(block)) {
        const value = JSON.parse(block.text) as Json;
        for (const schema of requestSchemas) expect(accepts(schema, value), `a request body shown on its own: ${block.text}`).toBe(false);
      }
    }
  });

  it("every curl command gets the answer shown after it, or else its documented one", async () => {
    const started = await start();
    const doc = await (await started.portal.fetch("/api/v1/openapi.json")).json<JsonObject>();
    const operations = operationsOf(doc);
    const commands = blocks.filter((block) => block.language === "sh");
    let sent = 0;
    for (const block of commands) {
      const { method, path } = requestOf(block.text);
      const found = operations.find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path));
      if (!found) throw new Error(`${method.toUpperCase()} ${path} is no operation of the document`);
      const what = `${method.toUpperCase()} ${path}:\n${block.text}`;
      const shown = block.next?.language === "json" ? (JSON.parse(block.next.text.replaceAll(DOCUMENTED_ORIGIN, started.portal.url)) as JsonObject) : null;
      const shownStatus = shown?.status;
      const problem = typeof shown?.code === "string" && typeof shownStatus === "number";
      const expected = problem ? String(shownStatus) : successOf(found.operation);
      const answer = await expectDocumented(doc, found.operation, await send(block.text, started), expected, what);
      if (shown) {
        // A problem's request_id is this request's own; all else is as shown.
        const { request_id: _shownId, ...shownRest } = shown;
        const { request_id: _id, ...rest } = answer as JsonObject;
        expect(problem ? rest : answer, what).toEqual(problem ? shownRest : shown);
      }
      sent += 1;
    }
    expect(sent).toBe(commands.length);
    // The payment the docs send was applied.
    await eventually(
      async () => (await started.portal.fetch("/api/v1/payments/PSP-20261123-000187", { headers: { Authorization: `Bearer ${started.key}` } })).status === 200,
      15_000,
      "the docs' payment applied",
    );
  }, 120_000);
});
