// Nothing the Partner API accepts is lost (decision 030). Generated requests go through the built Worker
// and its PAYMENTS queue consumer:
// 1. schema-valid random requests (every time zone form, times at the 90-day and clock-skew edges, unicode
//    failure reasons, batches of up to 100 mixing good and bad items): each is refused with a 400 that names every
//    bad item, or answered 202 and then every payment of it is held (or, re-sent with other content, kept as a
//    conflict the business sees). None is dropped.
// 2. requests generated from the OpenAPI document's own JSON Schema (GET /api/v1/openapi.json): what it allows, the
//    server accepts and applies.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { ACCRA, KUMASI } from "../support/tenants";
import { api, eventually, makeKey, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "100000" } });
let key: string;
let kumasi: Parties[];
let accra: Parties[];

beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  kumasi = await partiesOf(portal(), KUMASI);
  accra = await partiesOf(portal(), ACCRA);
});

const DAY = 86_400_000;
const MAX_AGE = 90 * DAY;
const SKEW = 5 * 60_000;
/** Room for the request's own time in flight, at both edges. */
const MARGIN = 2 * 60_000;
const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

interface Stored {
  reference: string;
  createdAt: number;
  amount: number;
  failureReason: string | null;
}

async function storedOf(references: string[]): Promise<Map<string, Stored>> {
  const db = await portal().db();
  const rows: Stored[] = [];
  // Two bound parameters whatever the count (json_each), in slices to keep each statement small.
  for (let i = 0; i < references.length; i += 500) {
    const { results } = await db
      .prepare(
        "SELECT reference, created_at AS createdAt, amount, failure_reason AS failureReason FROM transactions WHERE business_id = ?1 AND reference IN (SELECT value FROM json_each(?2))",
      )
      .bind(KUMASI, JSON.stringify(references.slice(i, i + 500)))
      .all<Stored>();
    rows.push(...results);
  }
  return new Map(rows.map((row) => [row.reference, row]));
}

async function conflictsOf(references: string[]): Promise<Set<string>> {
  const { results } = await (
    await portal().db()
  )
    .prepare("SELECT DISTINCT reference FROM payment_conflicts WHERE business_id = ?1 AND kind = 'payment' AND reference IN (SELECT value FROM json_each(?2))")
    .bind(KUMASI, JSON.stringify(references))
    .all<{ reference: string }>();
  return new Set(results.map((row) => row.reference));
}

// --- times, written in every form the API documents

interface TimeForm {
  /** Minutes east of UTC. */
  offset: number;
  /** Digits of fraction: 0 to 9. */
  digits: number;
  /** Written as Z (offset 0 only) or as ±HH:MM. */
  zulu: boolean;
}

const timeForm: fc.Arbitrary<TimeForm> = fc.oneof(
  fc.constant({ offset: 0, digits: 0, zulu: true }),
  fc.record({
    offset: fc.oneof(fc.constantFrom(0, 14 * 60, -12 * 60, 5 * 60 + 45, -(9 * 60 + 30), 60), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
    digits: fc.integer({ min: 0, max: 9 }),
    zulu: fc.boolean(),
  }),
);

/** `ms` written in that form, and the instant the portal must hold for it (a fraction is cut, never rounded). */
function written(ms: number, form: TimeForm): { text: string; instant: number } {
  const local = new Date(ms + form.offset * 60_000).toISOString();
  const millis = local.slice(20, 23);
  const fraction = form.digits === 0 ? "" : `.${(millis + "271828").slice(0, form.digits)}`;
  const zone = form.zulu && form.offset === 0 ? "Z" : `${form.offset < 0 ? "-" : "+"}${pad(Math.trunc(form.offset / 60))}:${pad(form.offset % 60)}`;
  const kept = form.digits === 0 ? "000" : millis.slice(0, Math.min(3, form.digits)).padEnd(3, "0");
  return { text: `${local.slice(0, 19)}${fraction}${zone}`, instant: Math.floor(ms / 1000) * 1000 + Number(kept) };
}

/** When a good payment happened: at the 90-day edge, at the clock-skew edge, or anywhere between. */
const goodWhen = (now: number) =>
  fc.oneof(
    fc.integer({ min: now - MAX_AGE + MARGIN, max: now - MAX_AGE + MARGIN + 3_600_000 }),
    fc.integer({ min: now + SKEW - MARGIN - 60_000, max: now + SKEW - MARGIN }),
    fc.integer({ min: now - MAX_AGE + MARGIN, max: now + SKEW - MARGIN }),
  );

// Free text as people write it in Ghana: Akan and Ewe letters, emoji, Arabic, accents; no digits (a run of them
// could read as a card number, which the door refuses on purpose).
const TEXT_CHARS = [
  ..."abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ",
  "Ɔ",
  "Ɛ",
  "Ŋ",
  "ɔ",
  "ɛ",
  "ŋ",
  "é",
  "ñ",
  "🙏",
  "🎉",
  "👍🏾",
  "م",
  "ر",
  "ح",
  "-",
  ":",
  "'",
  ",",
  ".",
];
const text = fc
  .array(fc.constantFrom(...TEXT_CHARS), { minLength: 1, maxLength: 60 })
  .map((chars) => chars.join(""))
  .filter((s) => s.trim().length > 0 && s.length <= 200);

interface Item {
  body: Record<string, unknown>;
  /** Why the door must refuse it, or null for a good one. */
  bad: string | null;
  /** For a good one: the instant and the reason the portal must hold. */
  instant?: number;
  reason?: string | null;
}

let sequence = 0;
const runId = Date.now().toString(36);

function goodPayment(now: number) {
  return fc
    .record({
      party: fc.integer({ min: 0, max: 1_000 }),
      card: fc.boolean(),
      failed: fc.boolean(),
      reason: text,
      amount: fc.integer({ min: 1, max: 100_000_000 }),
      when: goodWhen(now),
      form: timeForm,
      byCode: fc.boolean(),
    })
    .map((g): Item => {
      const p = kumasi[g.party % kumasi.length]!;
      const time = written(g.when, g.form);
      sequence += 1;
      return {
        body: {
          reference: `PROP-${runId}-${sequence}`,
          merchant: g.byCode ? p.merchantCode : p.merchantId,
          point_of_sale: p.pointOfSaleId,
          ...(g.card
            ? { terminal_serial: p.serial, network: "VISA", payer: { card_bin: "412345", card_last4: "4242" } }
            : { network: "MTN", payer: { msisdn: "233244123456" } }),
          channel: g.card ? "card" : "mobile_money",
          amount: g.amount,
          currency: "GHS",
          status: g.failed ? "failed" : "successful",
          ...(g.failed ? { failure_reason: g.reason } : {}),
          occurred_at: time.text,
        },
        bad: null,
        instant: time.instant,
        reason: g.failed ? g.reason.trim() : null,
      };
    });
}

/** A good payment spoiled in one way the door must see. */
function badPayment(now: number) {
  return fc
    .tuple(
      goodPayment(now),
      fc.constantFrom(
        "impossible-day",
        "hours-only-zone",
        "space-before-zone",
        "too-old",
        "future",
        "unknown-merchant",
        "other-business",
        "missing",
        "type",
        "rule",
        "unknown-field",
      ),
      fc.integer({ min: 0, max: 1_000 }),
    )
    .map(([item, how, n]): Item => {
      const body = { ...item.body };
      const at = String(body.occurred_at);
      if (how === "impossible-day") body.occurred_at = `20${26 + (n % 3)}-${["02-30", "02-31", "04-31", "06-31", "09-31", "11-31"][n % 6]}${at.slice(10)}`;
      else if (how === "hours-only-zone") body.occurred_at = `${at.slice(0, 19)}+01`;
      else if (how === "space-before-zone") body.occurred_at = `${at.slice(0, 19)} +00:00`;
      else if (how === "too-old") body.occurred_at = new Date(now - MAX_AGE - DAY - n * 60_000).toISOString();
      else if (how === "future") body.occurred_at = new Date(now + SKEW + 3_600_000 + n * 60_000).toISOString();
      else if (how === "unknown-merchant") body.merchant = `mer_nobody_${n}`;
      else if (how === "other-business") body.point_of_sale = accra[n % accra.length]!.pointOfSaleId;
      else if (how === "missing") delete body[["reference", "merchant", "amount", "occurred_at", "currency"][n % 5]!];
      else if (how === "type") body.amount = String(body.amount);
      else if (how === "rule") body.network = body.channel === "card" ? "MTN" : "VISA";
      else body[`note_${n}`] = "Ɛ";
      return { body, bad: how };
    });
}

interface Sent {
  reference: string;
  instant: number;
  amount: number;
  reason: string | null;
}

describe("property: every schema-valid request is refused whole or applied whole", () => {
  it("random batches of good and bad payments: a 400 names every bad item; after a 202 every payment is held or a conflict", async () => {
    const accepted: Sent[] = [];
    const resent = new Set<string>();
    let payments = 0;
    let refused = 0;
    const now = Date.now();
    const request = fc.record({
      single: fc.boolean(),
      items: fc.tuple(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 50, max: 100 })), fc.boolean()).chain(([n, mixed]) =>
        fc.array(mixed ? fc.oneof({ arbitrary: goodPayment(now), weight: 19 }, { arbitrary: badPayment(now), weight: 1 }) : goodPayment(now), {
          minLength: n,
          maxLength: n,
        }),
      ),
      // Sometimes an accepted reference again, with another amount: a conflict, kept aside for the business.
      again: fc.option(fc.nat(), { freq: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ single, items: generated, again }) => {
        // fast-check may hand the same generated item to two runs (or twice to one, when shrinking): each reference
        // is made unique here, so a repeat in the request is only ever the deliberate one below.
        const items = (single ? generated.slice(0, 1) : generated).map((item) =>
          typeof item.body.reference === "string" ? { ...item, body: { ...item.body, reference: `PROP-${runId}-${(sequence += 1)}` } } : item,
        );
        let resending: string | null = null;
        if (again !== null && accepted.length > 0 && items[0]!.bad === null) {
          const earlier = accepted[again % accepted.length]!;
          // Stored first, so which of the two is the payment and which the conflict is decided.
          await eventually(async () => (await storedOf([earlier.reference])).size === 1, 30_000, "the earlier payment");
          items[0] = { ...items[0]!, body: { ...items[0]!.body, reference: earlier.reference, amount: earlier.amount === 1 ? 2 : earlier.amount - 1 } };
          resending = earlier.reference;
        }
        const response = await api(portal(), key, "/api/v1/payments", single ? items[0]!.body : { payments: items.map((item) => item.body) });
        const answer = await response.json<{ accepted?: number; errors?: { path: string; message: string }[] }>();
        const bad = items.flatMap((item, i) => (item.bad ? [i] : []));
        payments += items.length;
        if (bad.length > 0) {
          expect(response.status, JSON.stringify(answer)).toBe(400);
          const prefix = (i: number) => (single ? "" : `payments[${i}].`);
          // Every bad item is named; nothing is named that is not bad.
          for (const i of bad)
            expect(
              answer.errors!.some((e) => (single ? true : e.path.startsWith(prefix(i)))),
              `${items[i]!.bad} at ${i}`,
            ).toBe(true);
          for (const error of answer.errors!) expect(single || bad.some((i) => error.path.startsWith(prefix(i))), error.path).toBe(true);
          refused += 1;
          return;
        }
        expect(response.status, JSON.stringify(answer)).toBe(202);
        expect(answer).toEqual({ accepted: items.length });
        if (resending) resent.add(resending);
        for (const item of items) {
          const reference = item.body.reference as string;
          if (reference !== resending) accepted.push({ reference, instant: item.instant!, amount: item.body.amount as number, reason: item.reason ?? null });
        }
      }),
      { numRuns: 80 },
    );
    expect(refused).toBeGreaterThan(0);
    expect(payments).toBeGreaterThan(1_000);

    // None dropped: every accepted payment is held, as sent (its instant, amount and reason); every resend with other content is a conflict.
    const references = accepted.map((a) => a.reference);
    let held = new Map<string, Stored>();
    await eventually(
      async () => {
        held = await storedOf(references);
        return held.size === references.length;
      },
      60_000,
      `all ${references.length} accepted payments to be held`,
    );
    for (const sent of accepted) {
      const row = held.get(sent.reference)!;
      expect({ reference: row.reference, at: row.createdAt, amount: row.amount, reason: row.failureReason }).toEqual({
        reference: sent.reference,
        at: sent.instant,
        amount: sent.amount,
        reason: sent.reason,
      });
    }
    if (resent.size > 0) await eventually(async () => (await conflictsOf([...resent])).size === resent.size, 30_000, "the conflicts to be kept");
    // And the API answers them: a sample through GET.
    for (const sent of accepted.filter((_, i) => i % 97 === 0)) {
      const got = await api(portal(), key, `/api/v1/payments/${encodeURIComponent(sent.reference)}`);
      expect(got.status).toBe(200);
      expect((await got.json<{ occurred_at: string }>()).occurred_at).toBe(new Date(sent.instant).toISOString());
    }
  }, 300_000);
});

// --- 2. what the OpenAPI document allows

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = { [key: string]: Json };

/** A generator of the values a JSON Schema allows, for the keywords the Partner API's document uses. */
function fromSchema(schema: JsonSchema, doc: JsonSchema): fc.Arbitrary<Json> {
  if (typeof schema.$ref === "string") {
    const target = schema.$ref
      .slice(2)
      .split("/")
      .reduce<Json>((node, part) => (node as JsonSchema)[part]!, doc) as JsonSchema;
    return fromSchema(target, doc);
  }
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((branch) => fromSchema(branch as JsonSchema, doc)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case "string": {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = (schema.maxLength as number | undefined) ?? 200;
      const base = typeof schema.pattern === "string" ? fc.stringMatching(new RegExp(schema.pattern, "u")) : fc.string({ minLength: min, maxLength: max });
      return base.filter((s) => [...s].length >= min && [...s].length <= max && s.length <= max);
    }
    case "integer":
    case "number":
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1e9, max: (schema.maximum as number | undefined) ?? 1e9 });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(fromSchema(schema.items as JsonSchema, doc), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 10, 30),
      });
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      const record: fc.Arbitrary<Json> = fc.record(Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, fromSchema(sub, doc)])), {
        requiredKeys: required,
      });
      return record;
    }
    default:
      throw new Error(`the generator does not know ${JSON.stringify(schema)}`);
  }
}

describe("property: what the OpenAPI document allows, the server accepts and applies", () => {
  it("payments generated from /api/v1/openapi.json's PaymentsRequest, with the rules it states in words, are all applied", async () => {
    const doc = await (await api(portal(), null, "/api/v1/openapi.json")).json<JsonSchema>();
    const request = (doc.components as JsonSchema).schemas as JsonSchema;
    const paymentsRequest = fromSchema(request.PaymentsRequest as JsonSchema, doc);
    const cardSchemes = ["VISA", "MASTERCARD", "GHLINK"];
    const networks = { card: cardSchemes, mobile_money: ["MTN", "Telecel", "AirtelTigo"] } as const;
    const accepted: { reference: string; instant: number }[] = [];
    const now = Date.now();
    let sequenceHere = 0;

    /**
     * The document's words that JSON Schema cannot hold, kept: network goes with channel, payer with channel, a
     * card payment has a terminal, failure_reason with failed; the merchant, point of sale and terminal are this
     * business's and go together; references are unique; when it happened is within 90 days and not ahead.
     * The spelling of the time (zone, fraction, time of day) is the generated one: only its day is moved into the window.
     */
    function keepWords(payment: Record<string, Json>, seed: number): Record<string, Json> {
      const p = kumasi[seed % kumasi.length]!;
      const channel = payment.channel as "card" | "mobile_money";
      const out: Record<string, Json> = { ...payment, merchant: seed % 2 ? p.merchantId : p.merchantCode, point_of_sale: p.pointOfSaleId };
      sequenceHere += 1;
      out.reference = `${(payment.reference as string).slice(0, 40)}-${runId}-${sequenceHere}`.replace(/^[^A-Za-z0-9]/, "R");
      if (!(networks[channel] as readonly string[]).includes(payment.network as string)) out.network = networks[channel][seed % 3]!;
      const payer = (payment.payer ?? {}) as Record<string, Json>;
      out.payer =
        channel === "card" ? { card_bin: payer.card_bin ?? "412345", card_last4: payer.card_last4 ?? "4242" } : { msisdn: payer.msisdn ?? "233244123456" };
      if (channel === "card") out.terminal_serial = p.serial;
      else if (payment.terminal_serial !== undefined) out.terminal_serial = p.serial;
      if (payment.status === "failed") out.failure_reason = payment.failure_reason ?? "Declined";
      else delete out.failure_reason;
      const day = new Date(now - (2 + (seed % 80)) * DAY).toISOString().slice(0, 10);
      out.occurred_at = `${day}${(payment.occurred_at as string).slice(10)}`;
      return out;
    }

    await fc.assert(
      fc.asyncProperty(paymentsRequest, fc.nat(), async (generated, seed) => {
        const body = generated as Record<string, Json>;
        const isBatch = Array.isArray(body.payments);
        const items = (isBatch ? (body.payments as Record<string, Json>[]) : [body]).map((payment, i) => keepWords(payment, seed + i));
        // A field that reads as a full card number is refused, as the document says: none is sent here.
        fc.pre(items.every((item) => cardNumberPaths(item).length === 0));
        const sent = isBatch ? { payments: items } : items[0]!;
        const response = await api(portal(), key, "/api/v1/payments", sent);
        expect(response.status, `${JSON.stringify(await response.clone().json())} for ${JSON.stringify(sent)}`).toBe(202);
        for (const item of items)
          accepted.push({ reference: item.reference as string, instant: Date.parse((item.occurred_at as string).replace(/(\.\d{3})\d+/, "$1")) });
      }),
      { numRuns: 60 },
    );
    expect(accepted.length).toBeGreaterThan(60);
    await eventually(async () => (await storedOf(accepted.map((a) => a.reference))).size === accepted.length, 60_000, "every generated payment to be held");
    const held = await storedOf(accepted.map((a) => a.reference));
    for (const { reference, instant } of accepted) expect(held.get(reference)!.createdAt, reference).toBe(instant);
  }, 300_000);
});
