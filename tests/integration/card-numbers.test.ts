// Card numbers refused everywhere (decision 031), against the built Worker in workerd with real D1 and the
// PAYMENTS queue consumed: every spelling of a card number, sent in every place a Partner API request carries text
// (path, query, headers, body values and keys of payments, reversals, heartbeats and disputes), is answered 400
// naming the place and never the number, and afterwards no table of any database (core and shards) and no line
// the portal logged holds one, in any spelling. A body nested 2,000 or 100,000 levels deep is a 400, not a 5xx.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { looksLikeCardNumber } from "#server/card-numbers/card-numbers";
import { CARD_NUMBERS, ISSUE_SPELLINGS, numeralSpelling } from "../support/card-spellings";
import { onlyDigits, tablesHoldingDigits } from "../support/d1-dump";
import { answerOf, api, cardPayment, eventually, makeKey, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const logLines: string[] = [];
const portal = usePortal({
  queueConsumers: paymentsConsumers(),
  vars: { API_RATE_LIMIT_PER_MINUTE: "100000" },
  logTo: (line) => logLines.push(line),
});
let key: string;
let parties: Parties;

beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  parties = (await partiesOf(portal(), KUMASI))[0]!;
});

const databases = () => [portal().core(), ...portal().shards()];
const everyTableHolding = async () => (await Promise.all(databases().map((db) => tablesHoldingDigits(db, CARD_NUMBERS)))).flat();

const recently = () => new Date(Date.now() - 60_000).toISOString();
const reversal = () => ({ reason: "Customer cancelled", reversed_at: recently() });
const heartbeat = (overrides: Record<string, unknown> = {}) => ({
  battery_percent: 80,
  signal_percent: 60,
  software_version: "2.14.3",
  sent_at: recently(),
  ...overrides,
});
const dispute = (overrides: Record<string, unknown> = {}) => ({
  payment_reference: "KFF-261121-0000487",
  reason_code: "13.1",
  amount: 100,
  currency: "GHS",
  evidence_due_by: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  ...overrides,
});
const segment = (text: string) => encodeURIComponent(text);
/** A header value must be a byte string without line breaks: spellings outside Latin-1 cannot be sent in one. */
const sendableInHeader = (text: string) => /^[\t\x20-\x7e\xa0-\xff]+$/.test(text);

interface Carrier {
  name: string;
  /** Where the refusal must say it was. */
  place: string;
  send: (spelling: string) => Promise<Response> | null;
}

const CARRIERS: Carrier[] = [
  { name: "a reversal's path", place: "URL path", send: (s) => api(portal(), key, `/api/v1/payments/${segment(s)}/reversal`, reversal()) },
  { name: "a payment's path (GET)", place: "URL path", send: (s) => api(portal(), key, `/api/v1/payments/${segment(s)}`) },
  { name: "a heartbeat's path", place: "URL path", send: (s) => api(portal(), key, `/api/v1/terminals/${segment(s)}/heartbeats`, heartbeat()) },
  { name: "a dispute's close path", place: "URL path", send: (s) => api(portal(), key, `/api/v1/disputes/${segment(s)}/close`, { outcome: "won" }) },
  { name: "an unknown path", place: "URL path", send: (s) => api(portal(), key, `/api/v1/cards/${segment(s)}`) },
  { name: "the query", place: "query parameter note", send: (s) => api(portal(), key, `/api/v1/payments?note=${segment(s)}`, momoPayment(parties)) },
  {
    name: "Idempotency-Key",
    place: "header idempotency-key",
    send: (s) => (sendableInHeader(s) ? api(portal(), key, "/api/v1/payments", momoPayment(parties), { "Idempotency-Key": s }) : null),
  },
  {
    name: "User-Agent",
    place: "header user-agent",
    send: (s) => (sendableInHeader(s) ? api(portal(), key, "/api/v1/payments", momoPayment(parties), { "User-Agent": `Processor ${s}` }) : null),
  },
  {
    name: "any other header",
    place: "header x-card-note",
    send: (s) => (sendableInHeader(s) ? api(portal(), key, "/api/v1/payments", momoPayment(parties), { "X-Card-Note": s }) : null),
  },
  { name: "a payment's reference", place: "reference", send: (s) => api(portal(), key, "/api/v1/payments", cardPayment(parties, { reference: s })) },
  {
    name: "a batch payment's failure_reason",
    place: "payments[1].failure_reason",
    send: (s) =>
      api(portal(), key, "/api/v1/payments", {
        payments: [momoPayment(parties), momoPayment(parties, { status: "failed", failure_reason: `card ${s} declined` })],
      }),
  },
  {
    name: "a payment's key",
    place: "payer.(a key that looks like a card number)",
    send: (s) => api(portal(), key, "/api/v1/payments", momoPayment(parties, { payer: { msisdn: "233244123456", [s]: true } })),
  },
  {
    name: "a reversal's reason",
    place: "reason",
    send: (s) => api(portal(), key, "/api/v1/payments/KFF-261121-0000487/reversal", { ...reversal(), reason: `Card ${s} reported stolen` }),
  },
  {
    name: "a heartbeat's software_version",
    place: "software_version",
    send: (s) => api(portal(), key, `/api/v1/terminals/${segment(parties.serial)}/heartbeats`, heartbeat({ software_version: s })),
  },
  { name: "a dispute's payment_reference", place: "payment_reference", send: (s) => api(portal(), key, "/api/v1/disputes", dispute({ payment_reference: s })) },
  { name: "a dispute's reason_code", place: "reason_code", send: (s) => api(portal(), key, "/api/v1/disputes", dispute({ reason_code: s })) },
];

describe("a card number in any spelling, in any place a request carries text", () => {
  it("starts from a portal that holds none", { timeout: 120_000 }, async () => {
    expect(await everyTableHolding()).toEqual([]);
  });

  it("is refused with 400 naming the place, never the number", { timeout: 300_000 }, async () => {
    const wrong: string[] = [];
    for (const carrier of CARRIERS) {
      for (const [spelling, text] of ISSUE_SPELLINGS) {
        const sent = carrier.send(text);
        if (!sent) continue;
        const response = await sent;
        const body = await response.text();
        const places = response.status === 400 ? ((JSON.parse(body) as { errors?: { path: string; message: string }[] }).errors ?? []) : [];
        const named = places.some((error) => error.path === carrier.place && /card number/.test(error.message));
        if (response.status !== 400 || !named || looksLikeCardNumber(body)) {
          wrong.push(`${carrier.name}, ${spelling}: ${response.status} ${looksLikeCardNumber(body) ? "(the answer echoes it)" : body.slice(0, 200)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("is stored in no table of any database and in no line the Worker logged", { timeout: 120_000 }, async () => {
    // What was accepted around the refusals is written (the consumer ran): a payment sent now is held within seconds.
    const last = momoPayment(parties);
    expect((await api(portal(), key, "/api/v1/payments", last)).status).toBe(202);
    const db = await portal().db();
    const held = () =>
      db.prepare("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference = ?").bind(KUMASI, last.reference).first<number>("n");
    await eventually(async () => (await held()) === 1, 20_000, "the last payment to be written");

    expect(await everyTableHolding()).toEqual([]);

    // The Worker's own console is captured (an unknown cron is logged), and an error it logs for a page whose path
    // holds a card number (Remix refusing a cross-site form post, while that throws) has the digits masked.
    await portal().scheduled("7 7 7 7 7");
    await portal().fetch("/merchants/4111-1111-1111-1111", {
      method: "POST",
      headers: { Origin: "https://elsewhere.example", Authorization: "Bearer x", "Content-Type": "application/x-www-form-urlencoded" },
      body: "note=4111.1111.1111.1111",
    });
    await eventually(async () => logLines.some((line) => line.includes("cron.unknown")), 10_000, "the Worker's log line");

    // The dev server's access line ("POST /api/v1/payments/4111.../reversal 400") shows the URL as the client sent
    // it, before any Worker runs; wrangler dev prints the same. Production keeps no such line (below). Every other
    // line, the Worker's own console among them, holds none.
    const accessLine = /^(\[mf:\w+\] )?(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \/\S* \d{3} /;
    expect(logLines.some((line) => accessLine.test(line))).toBe(true);
    const holding = logLines.filter((line) => !accessLine.test(line) && CARD_NUMBERS.some((digits) => onlyDigits(line).includes(digits)));
    expect(holding).toEqual([]);
  });

  it("production keeps no per-request invocation log of URLs (wrangler.toml)", () => {
    const toml = readFileSync(resolve(import.meta.dirname, "../../wrangler.toml"), "utf8");
    expect(toml).toMatch(/\[observability\.logs\][^[]*invocation_logs = false/);
  });
});

describe("spellings beyond ASCII: letters drawn as nothing, numerals outside \\p{Nd}, repeated keys and lone surrogates", () => {
  const failedPayment = (reason: string) => momoPayment(parties, { status: "failed", failure_reason: reason });
  const problemOf = async (response: Response) => ({
    status: response.status,
    ...(JSON.parse(await response.text()) as { code: string; errors: { path: string }[] }),
  });

  it("refuses the reported failure_reason and generated spellings with 400, and keeps none of them", { timeout: 300_000 }, async () => {
    const sent: string[] = ["4111111111111111"];
    expect(await problemOf(await api(portal(), key, "/api/v1/payments", failedPayment("card 4111\u31641111\u31641111\u31641111 declined")))).toMatchObject({
      status: 400,
      code: "card_number",
      errors: [{ path: "failure_reason" }],
    });
    await fc.assert(
      fc.asyncProperty(numeralSpelling, async ({ digits, text }) => {
        sent.push(digits);
        const answer = await problemOf(
          await api(portal(), key, "/api/v1/payments", { payments: [momoPayment(parties), failedPayment(`card ${text} declined`)] }),
        );
        expect(answer, text).toMatchObject({ status: 400, code: "card_number", errors: [{ path: "payments[1].failure_reason" }] });
      }),
      { numRuns: 40 },
    );
    // Refused before the queue: a payment accepted after them is written, and no table holds any of their digits.
    const last = momoPayment(parties);
    expect((await api(portal(), key, "/api/v1/payments", last)).status).toBe(202);
    const db = await portal().db();
    const held = () =>
      db.prepare("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference = ?").bind(KUMASI, last.reference).first<number>("n");
    await eventually(async () => (await held()) === 1, 20_000, "the last payment to be written");
    expect((await Promise.all(databases().map((db) => tablesHoldingDigits(db, sent)))).flat()).toEqual([]);
  });

  it("refuses a repeated key (a card number in the value JSON.parse drops) with 400 naming its path", async () => {
    // The first failure_reason holds the card number; JSON.parse keeps only the second.
    const repeated = JSON.stringify(failedPayment("card 4111 1111 1111 1111 declined")).replace(/}$/, ',"failure_reason":"declined"}');
    const body = `{"payments":[${JSON.stringify(momoPayment(parties))},${repeated}]}`;
    expect(JSON.parse(body)).toMatchObject({ payments: [{}, { failure_reason: "declined" }] });
    expect(await problemOf(await api(portal(), key, "/api/v1/payments", body))).toMatchObject({
      status: 400,
      code: "repeated_key",
      errors: [{ path: "payments[1].failure_reason" }],
    });
    const reversalBody = `{"reason":"Customer cancelled","reversed_at":"${recently()}","reason":"Customer cancelled"}`;
    expect(await problemOf(await api(portal(), key, "/api/v1/payments/KFF-261121-0000487/reversal", reversalBody))).toMatchObject({
      status: 400,
      code: "repeated_key",
      errors: [{ path: "reason" }],
    });
  });

  it("refuses a lone surrogate in any string or key with 400 naming the field", async () => {
    // JSON.stringify writes a lone surrogate as its escape, as a client's library does.
    expect(await problemOf(await api(portal(), key, "/api/v1/payments", failedPayment("declined \ud800")))).toMatchObject({
      status: 400,
      code: "text_not_well_formed",
      errors: [{ path: "failure_reason" }],
    });
    expect(await problemOf(await api(portal(), key, "/api/v1/disputes", dispute({ reason_code: "13.1\udc00" })))).toMatchObject({
      status: 400,
      code: "text_not_well_formed",
      errors: [{ path: "reason_code" }],
    });
    expect(
      await problemOf(await api(portal(), key, "/api/v1/payments", momoPayment(parties, { payer: { msisdn: "233244123456", "x\ud83d": 1 } }))),
    ).toMatchObject({
      status: 400,
      code: "text_not_well_formed",
      errors: [{ path: "payer.(a key that is not well-formed Unicode)" }],
    });
  });
});

describe("a body nested thousands of levels deep", () => {
  const arrays = (depth: number) => `${"[".repeat(depth)}"4111 1111 1111 1111"${"]".repeat(depth)}`;
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const POSTS = [
    "/api/v1/payments",
    "/api/v1/payments/KFF-261121-0000487/reversal",
    () => `/api/v1/terminals/${segment(parties.serial)}/heartbeats`,
    "/api/v1/disputes",
    `/api/v1/disputes/dsp_${"0".repeat(32)}/close`,
  ];
  it.each([
    ["2,000 arrays", arrays(2_000)],
    ["2,000 objects", objects(2_000)],
    ["100,000 arrays", arrays(100_000)],
  ])("is answered 400 at every POST endpoint: %s", async (_what, body) => {
    for (const post of POSTS) {
      const path = typeof post === "function" ? post() : post;
      const response = await api(portal(), key, path, body);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect((await answerOf(response)).body).toEqual({ code: "body_too_deep", message: expect.stringMatching(/nested more than 32 levels/) });
    }
  });
});
