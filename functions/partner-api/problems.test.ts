// The catalogue of problem codes is the one list: the docs name each code, every answer is a problem of one code, and
// the request id and absolute type are added on the way out.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, RuleError } from "../tenancy/tenant";
import { finishProblem, PROBLEM_CODES, PROBLEMS, problemOfError, problemResponse } from "./problems";

describe("problem codes", () => {
  it("docs/partner-api.md lists every code with its status", () => {
    const docs = readFileSync("docs/partner-api.md", "utf8");
    for (const code of PROBLEM_CODES) expect(docs, code).toContain(`| \`${code}\` | ${PROBLEMS[code].status} |`);
  });

  it("a problem answer is application/problem+json with its code's status and title; finishing adds the origin and request id", async () => {
    const raw = problemResponse("payment_not_found", "No payment with that reference.");
    expect(raw.status).toBe(404);
    const finished = await finishProblem(raw, "https://portal.example.com", "7F3K-Q2M9-XD4T");
    expect(finished.headers.get("Content-Type")).toBe("application/problem+json; charset=utf-8");
    expect(await finished.json()).toEqual({
      type: "https://portal.example.com/developers/api#problem-payment_not_found",
      title: "No such payment",
      status: 404,
      code: "payment_not_found",
      detail: "No payment with that reference.",
      message: "No payment with that reference.",
      request_id: "7F3K-Q2M9-XD4T",
    });
  });

  it("finishing leaves a success untouched", async () => {
    const ok = Response.json({ accepted: 1 }, { status: 202 });
    expect(await finishProblem(ok, "https://x", "id")).toBe(ok);
  });
});

describe("a domain's errors, as the API answers them", () => {
  const words = fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom("a", "Ɔ", "Ɛ", "Ŋ", "🍲", " ", "9", ".") });
  /** A rule error that names the field it is about, as a refund's amount or reason does. */
  class FieldError extends RuleError {
    constructor(
      readonly field: string,
      message: string,
    ) {
      super(message);
    }
  }
  const body = async (response: Response | null) => await response!.json<Record<string, unknown>>();

  it("a broken rule is a 400 naming the operation's field, or the error's own; or the operation's own code; with the domain's words", async () => {
    await fc.assert(
      fc.asyncProperty(words, words, words, fc.constantFrom(...PROBLEM_CODES), async (message, path, field, code) => {
        const plain = problemOfError(new RuleError(message), { rule: { path } });
        expect(plain!.status).toBe(400);
        expect(await body(plain)).toMatchObject({ code: "validation_failed", errors: [{ path, message }] });
        expect(await body(problemOfError(new FieldError(field, message), { rule: { path } }))).toMatchObject({ errors: [{ path: field, message }] });
        const coded = problemOfError(new RuleError(message), { rule: { code } });
        expect(coded!.status).toBe(PROBLEMS[code].status);
        expect(await body(coded)).toMatchObject({ code, detail: message });
      }),
    );
  });

  it("a forbidden or unknown thing is answered only as the operation names it; anything else is none of the caller's business", async () => {
    await fc.assert(
      fc.asyncProperty(words, words, async (message, path) => {
        const forbidden = problemOfError(new ForbiddenError(message), { forbidden: { code: "key_maker_not_allowed", detail: "no" } });
        expect(await body(forbidden)).toMatchObject({ code: "key_maker_not_allowed", detail: "no" });
        const unknown = problemOfError(new NotFoundError(message), { notFound: { path, message: "is not this business's" } });
        expect(await body(unknown)).toMatchObject({ code: "validation_failed", errors: [{ path, message: "is not this business's" }] });
        for (const error of [new RuleError(message), new ForbiddenError(message), new NotFoundError(message), new Error(message), message, null])
          expect(problemOfError(error)).toBeNull();
        expect(
          problemOfError(new Error(message), { rule: { path }, forbidden: { code: "out_of_scope", detail: "x" }, notFound: { path, message } }),
        ).toBeNull();
      }),
    );
  });

  it("a business being moved is every operation's 503 with Retry-After, whatever else it names", async () => {
    const moving = problemOfError(new Error("D1_ERROR: business_moving"), { rule: { path: "amount" } });
    expect(moving!.status).toBe(503);
    expect(moving!.headers.get("Retry-After")).toBe("30");
    expect(await body(moving)).toMatchObject({ code: "business_moving" });
  });
});
