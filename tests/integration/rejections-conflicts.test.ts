// Whatever the Partner API answers 202 for is applied or listed as refused (decisions 016, 028): a second body under a
// reference the portal already holds is refused after its 202, and GET /api/v1/rejections lists it with its code
// (reference_conflict), beside the requests the consumer could not apply (not_applied), in one newest-first list whose
// pages have neither duplicates nor gaps. Generated sequences of payments reusing references with differing bodies,
// through the built Worker and its PAYMENTS queue.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { api, eventually, makeKey, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "100000" } });

interface Rejection {
  id: string;
  references: string[];
  code: string;
  problem: string;
  error: string;
  attempts: number;
  received_at: string | null;
  parked_at: string;
}

let key: string;
let parties: Parties;

beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  parties = (await partiesOf(portal(), KUMASI))[0]!;
});

/** Every rejection of the business, page after page of `limit`. */
async function allRejections(limit: number): Promise<Rejection[]> {
  const all: Rejection[] = [];
  let after: string | null = null;
  do {
    const response = await api(portal(), key, `/api/v1/rejections?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ""}`);
    expect(response.status).toBe(200);
    const page = await response.json<{ data: Rejection[]; next: string | null }>();
    all.push(...page.data);
    after = page.next;
  } while (after);
  return all;
}

const amountOf = (variant: number) => 2_500 + variant;

describe("a second body under a reference the portal holds", () => {
  it("every payment answered 202 is applied or listed in GET /api/v1/rejections with its code (property)", { timeout: 240_000 }, async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        // Which of three references each payment uses, and which of three bodies (they differ by amount).
        fc.array(fc.record({ reference: fc.integer({ min: 0, max: 2 }), variant: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 8 }),
        async (sends) => {
          round += 1;
          const tag = `RJ-${Date.now().toString(36)}-${round}`;
          const referenceOf = (i: number) => `${tag}-${i}`;
          const occurredAt = new Date(Date.now() - 60_000).toISOString();
          for (const send of sends) {
            const body = momoPayment(parties, { reference: referenceOf(send.reference), amount: amountOf(send.variant), occurred_at: occurredAt });
            const answer = await api(portal(), key, "/api/v1/payments", body);
            expect(answer.status, await answer.clone().text()).toBe(202);
          }
          // What was sent, by reference: the bodies (variants) each one got.
          const sent = new Map<string, Set<number>>();
          for (const send of sends) sent.set(referenceOf(send.reference), (sent.get(referenceOf(send.reference)) ?? new Set()).add(send.variant));
          const expectedRefused = [...sent.values()].reduce((n, variants) => n + variants.size - 1, 0);
          const ours = async () => (await allRejections(100)).filter((r) => r.references.some((ref) => ref.startsWith(`${tag}-`)));
          await eventually(
            async () => {
              for (const reference of sent.keys()) if ((await api(portal(), key, `/api/v1/payments/${reference}`)).status !== 200) return false;
              return (await ours()).length === expectedRefused;
            },
            20_000,
            "every payment applied or refused",
          );
          const refused = await ours();
          for (const [reference, variants] of sent) {
            // One body is the payment; every other body sent under its reference is listed, once, with its code.
            const held = await (await api(portal(), key, `/api/v1/payments/${reference}`)).json<{ amount: number }>();
            const heldVariant = [...variants].find((variant) => amountOf(variant) === held.amount);
            expect(heldVariant, reference).toBeDefined();
            const listed = refused.filter((r) => r.references.includes(reference));
            expect(listed, reference).toHaveLength(variants.size - 1);
            for (const rejection of listed) {
              expect(rejection).toMatchObject({
                id: expect.stringMatching(/^cfl_\d+$/),
                references: [reference],
                code: "reference_conflict",
                problem: expect.stringContaining("was not applied"),
                attempts: 1,
              });
            }
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it("pages the merged list (requests not applied among the conflicts) newest first with neither duplicates nor gaps", async () => {
    // The test hook (outside production) makes a message fail as poison: it is parked, listed as not_applied.
    const poisons = [1, 2].map((i) => `POISON-TEST-RJ-${Date.now().toString(36)}-${i}`);
    for (const reference of poisons) expect((await api(portal(), key, "/api/v1/payments", momoPayment(parties, { reference }))).status).toBe(202);
    await eventually(async () => (await allRejections(100)).filter((r) => poisons.includes(r.references[0]!)).length === 2, 20_000, "the poisons parked");
    const whole = await allRejections(100);
    for (const rejection of whole.filter((r) => poisons.includes(r.references[0]!)))
      expect(rejection).toMatchObject({ id: expect.stringMatching(/^prk_/), code: "not_applied" });
    expect(whole.length).toBeGreaterThan(2);
    const at = (r: Rejection) => Date.parse(r.parked_at);
    for (let i = 1; i < whole.length; i++) expect(at(whole[i - 1]!)).toBeGreaterThanOrEqual(at(whole[i]!));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), async (limit) => {
        expect((await allRejections(limit)).map((r) => r.id)).toEqual(whole.map((r) => r.id));
      }),
      { numRuns: 5 },
    );
  });
});
