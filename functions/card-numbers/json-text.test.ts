// What JSON.parse does not say about a body (decision 031, amendment 2026-12-01): a key repeated at any depth and a
// lone surrogate in any string or key are refused with 400 naming the path; bodies without them are taken as before.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardNumberPaths, jsonPathOf, keyStep, MAX_JSON_DEPTH } from "./card-numbers";
import { jsonTextIssues } from "./json-text";
import { jsonBody } from "../partner-api/request";

type Step = { kind: "object"; key: string; siblings: Record<string, unknown> } | { kind: "array"; before: unknown[]; after: unknown[] };

const key = fc.string({ unit: "grapheme", maxLength: 6 });
const noise = fc.jsonValue({ maxDepth: 2 });
/** Where in the body the object of interest sits: a chain of objects and arrays, each with other members around it. */
const chain = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("object" as const), key, siblings: fc.dictionary(key, noise, { maxKeys: 3 }) }),
    fc.record({ kind: fc.constant("array" as const), before: fc.array(noise, { maxLength: 3 }), after: fc.array(noise, { maxLength: 3 }) }),
  ),
  { maxLength: MAX_JSON_DEPTH - 2 },
);
const space = fc.constantFrom("", " ", "\n  ", "\t");

/** The inner text wrapped in the chain, outermost first, and the steps to it. */
function wrap(steps: readonly Step[], inner: string, gap: string): { text: string; path: (string | number)[] } {
  let text = inner;
  for (const step of [...steps].reverse()) {
    if (step.kind === "object") {
      const others = Object.entries(step.siblings).filter(([name]) => name !== step.key);
      text = `{${[...others.map(([name, value]) => `${JSON.stringify(name)}:${gap}${JSON.stringify(value)}`), `${JSON.stringify(step.key)}:${gap}${text}`].join(`,${gap}`)}}`;
    } else text = `[${[...step.before.map((value) => JSON.stringify(value)), text, ...step.after.map((value) => JSON.stringify(value))].join(`,${gap}`)}]`;
  }
  return { text, path: steps.map((step) => (step.kind === "object" ? keyStep(step.key) : step.before.length)) };
}

/** A key written with every code unit escaped: the same key to JSON, other text to a naive comparison. */
const escaped = (name: string) => `"${Array.from({ length: name.length }, (_, i) => `\\u${name.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")}"`;

const post = (body: string) =>
  new Request("https://portal.example.com/api/v1/payments", { method: "POST", headers: { "Content-Type": "application/json" }, body });

async function problemOf(answer: Awaited<ReturnType<typeof jsonBody>>) {
  expect(answer).toBeInstanceOf(Response);
  const response = answer as Response;
  return { status: response.status, ...(await response.json<{ code: string; errors: { path: string }[] }>()) };
}

describe("a key repeated in an object", () => {
  it("is refused at any depth, naming its path, however the second is written", async () => {
    await fc.assert(
      fc.asyncProperty(
        chain,
        fc.dictionary(key, noise, { minKeys: 1, maxKeys: 4 }),
        fc.nat(),
        noise,
        fc.boolean(),
        space,
        async (steps, members, pick, second, escape, gap) => {
          const names = Object.keys(members);
          const repeated = names[pick % names.length]!;
          const entries = names.map((name) => `${JSON.stringify(name)}:${gap}${JSON.stringify(members[name])}`);
          const inner = `{${[...entries, `${escape ? escaped(repeated) : JSON.stringify(repeated)}:${gap}${JSON.stringify(second)}`].join(`,${gap}`)}}`;
          const { text, path } = wrap(steps, inner, gap);
          const expected = jsonPathOf([...path, keyStep(repeated)]);
          expect(jsonTextIssues(text)).toEqual({ repeatedKeys: [expected], notWellFormed: [] });
          const answer = await problemOf(await jsonBody(post(text)));
          if (answer.code === "card_number") return; // noise that reads as a card number is refused first, as before
          expect(answer).toMatchObject({ status: 400, code: "repeated_key", errors: [{ path: expected }] });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never overflows the stack on a body 100,000 levels deep", () => {
    const depth = 100_000;
    const text = `${'{"a":['.repeat(depth)}{"b":1,"b":2}${"]}".repeat(depth)}`;
    const issues = jsonTextIssues(text);
    expect(issues.repeatedKeys).toHaveLength(1);
    expect(issues.repeatedKeys[0]).toMatch(/^a\[0\]\.a\[0\]\..*\.b$/);
  });

  it("names at most 20 and never a key that is itself a card number", () => {
    expect(jsonTextIssues(`{${'"a":1,'.repeat(30_000)}"a":2}`).repeatedKeys).toEqual(["a"]);
    expect(jsonTextIssues(`[${Array.from({ length: 30 }, () => '{"a":1,"a":2}').join(",")}]`).repeatedKeys).toHaveLength(20);
    expect(jsonTextIssues('{"4111 1111 1111 1111":1,"4111 1111 1111 1111":2}').repeatedKeys).toEqual(["(a key that looks like a card number)"]);
  });
});

describe("a body without repeated keys or lone surrogates", () => {
  it("is taken as before", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(undefined, 2, "\t"), async (value, indent) => {
        fc.pre(cardNumberPaths(value).length === 0);
        const text = JSON.stringify(value, null, indent);
        expect(jsonTextIssues(text)).toEqual({ repeatedKeys: [], notWellFormed: [] });
        expect(await jsonBody(post(text))).toEqual({ text, json: JSON.parse(text) });
      }),
      { numRuns: 500 },
    );
  });

  it("takes a character beyond U+FFFF written as its escaped pair", async () => {
    expect(await jsonBody(post('{"name":"\\ud83e\\uddfe \\u0186komfo"}'))).toEqual({
      text: '{"name":"\\ud83e\\uddfe \\u0186komfo"}',
      json: { name: "🧾 Ɔkomfo" },
    });
  });
});

describe("text that is not well-formed Unicode", () => {
  const lone = fc.oneof(fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff })).map((code) => String.fromCharCode(code));
  const around = fc.string({ unit: "grapheme", maxLength: 8 });

  it("is refused in any value at any depth, naming its path", async () => {
    await fc.assert(
      fc.asyncProperty(chain, key, around, lone, around, space, async (steps, name, before, surrogate, after, gap) => {
        // JSON.stringify writes a lone surrogate as its escape (\udxxx), as a client's library does.
        const { text, path } = wrap(steps, `{${JSON.stringify(name)}:${gap}${JSON.stringify(`${before}${surrogate}${after}`)}}`, gap);
        const expected = jsonPathOf([...path, keyStep(name)]);
        expect(jsonTextIssues(text)).toEqual({ repeatedKeys: [], notWellFormed: [expected] });
        const answer = await problemOf(await jsonBody(post(text)));
        if (answer.code === "card_number") return;
        expect(answer).toMatchObject({ status: 400, code: "text_not_well_formed", errors: [{ path: expected }] });
      }),
      { numRuns: 500 },
    );
  });

  it("is refused in a key, and an array element, without echoing the key", async () => {
    expect(jsonTextIssues('{"a":{"x\\udc00":1}}').notWellFormed).toEqual(["a.(a key that is not well-formed Unicode)"]);
    expect(jsonTextIssues('{"notes":["ok","\\ud800"]}').notWellFormed).toEqual(["notes[1]"]);
    expect(jsonTextIssues('"\\udfff"').notWellFormed).toEqual(["(body)"]);
    expect(await problemOf(await jsonBody(post('{"failure_reason":"declined \\ud800"}')))).toMatchObject({
      status: 400,
      code: "text_not_well_formed",
      errors: [{ path: "failure_reason" }],
    });
  });
});
