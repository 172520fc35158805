// The catalogue of problem codes is the one list: the docs name each code, every answer is a problem of one code, and
// the request id and absolute type are added on the way out.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { finishProblem, PROBLEM_CODES, PROBLEMS, problemResponse } from "./problems";

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
