// Every refusal of the Partner API is an RFC 9457 problem (decision 044): application/problem+json, a `type` that
// links to its code's entry on the API reference page, a stable `code`, the request id, and for a 400 every problem
// with its JSON path; and every answer carries the IETF RateLimit fields.
import { describe, expect, it } from "vitest";
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from "#server/partner-api/problems";
import { api, makeKey, momoPayment, partiesOf } from "../support/partner-api";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ vars: { API_RATE_LIMIT_PER_MINUTE: "1000" } });
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ProblemCode;
  detail: string;
  message: string;
  request_id?: string;
  errors?: { path: string; message: string }[];
}

async function expectProblem(response: Response, code: ProblemCode): Promise<ProblemBody> {
  expect(response.status, code).toBe(PROBLEMS[code].status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/problem\+json\b/);
  const body = await response.json<ProblemBody>();
  expect(body).toMatchObject({ type: `${portal().url}/developers/api#problem-${code}`, title: PROBLEMS[code].title, status: PROBLEMS[code].status, code });
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.message).toBe(body.detail);
  // The id the answer's header carries, so a developer quoting the body quotes what the portal logged.
  expect(body.request_id).toBe(response.headers.get("X-Request-Id"));
  expect(response.headers.get("RateLimit-Policy")).toBe('"per-key";q=1000;w=60');
  return body;
}

describe("refusals are problems", () => {
  it("each refusal a developer can meet answers its code, with the request id and the rate-limit policy", async () => {
    const key = await makeKey(portal(), KUMASI);
    const [parties] = await partiesOf(portal(), KUMASI);

    // Before a key is known: no quota is used, so only the policy is said.
    const unauthorized = await api(portal(), null, "/api/v1/payments/PSP-1");
    await expectProblem(unauthorized, "unauthorized");
    expect(unauthorized.headers.get("RateLimit")).toBeNull();
    await expectProblem(await api(portal(), key, "/api/v1/no-such-thing"), "endpoint_not_found");
    await expectProblem(await portal().fetch("/api/v1/payments", { method: "DELETE", headers: { Authorization: `Bearer ${key}` } }), "method_not_allowed");
    const card = await expectProblem(await api(portal(), key, "/api/v1/payments", { ...momoPayment(parties!), note: "4111 1111 1111 1111" }), "card_number");
    expect(card.errors?.[0]?.path).toBe("note");

    // Counted against the key: the RateLimit field says what is left.
    const notFound = await api(portal(), key, "/api/v1/payments/NOPE-404");
    await expectProblem(notFound, "payment_not_found");
    expect(notFound.headers.get("RateLimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
    await expectProblem(await api(portal(), key, "/api/v1/payments", "{not json"), "body_not_json");
    await expectProblem(await api(portal(), key, "/api/v1/payments", "[]", { "Content-Type": "text/plain" }), "unsupported_media_type");
    await expectProblem(await api(portal(), key, "/api/v1/payments", JSON.stringify({ pad: "x".repeat(300 * 1024) })), "body_too_large");
    const invalid = await expectProblem(
      await api(portal(), key, "/api/v1/payments", { payments: [momoPayment(parties!, { amount: 1.5 }), momoPayment(parties!, { merchant: undefined })] }),
      "validation_failed",
    );
    expect(invalid.errors?.map((error) => error.path)).toEqual(expect.arrayContaining(["payments[0].amount", "payments[1].merchant"]));
    const payment = momoPayment(parties!);
    expect((await api(portal(), key, "/api/v1/payments", payment, { "Idempotency-Key": "problems-1" })).status).toBe(202);
    await expectProblem(
      await api(portal(), key, "/api/v1/payments", { ...payment, amount: 999 }, { "Idempotency-Key": "problems-1" }),
      "idempotency_key_reused",
    );
    await expectProblem(await api(portal(), key, "/api/v1/disputes/dsp_nope/close", { outcome: "won" }), "dispute_not_found");
  });

  it("a success carries the RateLimit fields too, and stays JSON", async () => {
    const key = await makeKey(portal(), KUMASI);
    const [parties] = await partiesOf(portal(), KUMASI);
    const first = await api(portal(), key, "/api/v1/payments", momoPayment(parties!));
    const second = await api(portal(), key, "/api/v1/payments", momoPayment(parties!));
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.headers.get("Content-Type")).toMatch(/^application\/json\b/);
    const remaining = (response: Response) => Number(/r=(\d+)/.exec(response.headers.get("RateLimit") ?? "")?.[1]);
    expect(remaining(first)).toBe(999);
    expect(remaining(second)).toBe(998);
  });

  it("every code has its entry on the API reference page, where each problem's type links", async () => {
    const page = await portal().fetch("/developers/api", { headers: await signedInCookie(portal(), KOFI, KUMASI) });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const code of PROBLEM_CODES) {
      expect(html, code).toContain(`id="problem-${code}"`);
      expect(html, code).toContain(`>${code}</code>`);
    }
  });
});
