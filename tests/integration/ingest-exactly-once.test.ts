// Exactly once (decision 016): thousands of random Partner API requests with
// duplicates, reorders (reversals before their payments, copies in any order),
// conflicting re-sends and queue redeliveries, through the built Worker and its
// PAYMENTS consumer on real D1. Afterwards: one payment per reference, every
// reversal applied once, the ledger sums to zero everywhere, running sums match
// entries, and the rollups and merchant totals agree with the payments.
import { describe, expect, it } from "vitest";
import { fingerprintOf } from "#server/partner-api/resolve";
import type { IngestMessage } from "#server/payments/consumer";
import type { PaymentItem } from "#server/payments/ingest-plan";
import { Rng } from "../../scripts/seed/prng";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { api, eventually, makeKey, partiesOf, paymentAppliedAfter, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "100000" } });

const PAYMENTS = 1_500;
const CONFLICTS = 40;
const REDELIVERED = 150;

/** A payment as sent (what plan() builds). */
interface SentPayment {
  reference: string;
  point_of_sale: string;
  channel: "card" | "mobile_money";
  network: string;
  amount: number;
  status: "successful" | "failed";
  failure_reason?: string;
  payer: { card_bin?: string; card_last4?: string; msisdn?: string };
  occurred_at: string;
  terminal_serial?: string;
}

interface Planned {
  body: Record<string, unknown>;
  reversal: { reason: string; reversed_at: string } | null;
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function plan(rng: Rng, parties: Parties[], now: number): Planned[] {
  const networks = ["MTN", "Telecel", "AirtelTigo"] as const;
  return Array.from({ length: PAYMENTS }, (_, i) => {
    const at = parties[Math.floor(rng.next() * parties.length)]!;
    const card = rng.next() < 0.3;
    const failed = rng.next() < 0.1;
    const body: Record<string, unknown> = {
      reference: `EO-${i.toString(36)}`,
      merchant: rng.next() < 0.5 ? at.merchantId : at.merchantCode,
      point_of_sale: at.pointOfSaleId,
      channel: card ? "card" : "mobile_money",
      network: card ? "VISA" : networks[i % 3],
      payer: card ? { card_bin: "412345", card_last4: String(1000 + (i % 9000)) } : { msisdn: `23324${String(1_000_000 + i).slice(-7)}` },
      amount: 100 + Math.floor(rng.next() * 500_000),
      currency: "GHS",
      status: failed ? "failed" : "successful",
      occurred_at: new Date(now - Math.floor(rng.next() * 5 * 86_400_000)).toISOString(),
      ...(card ? { terminal_serial: at.serial } : {}),
      ...(failed ? { failure_reason: "Declined by issuer: Ɔdɛŋ 🙏" } : {}),
    };
    const reversal = !failed && rng.next() < 0.12 ? { reason: "Customer complaint ✅", reversed_at: new Date(now - 1000).toISOString() } : null;
    return { body, reversal };
  });
}

async function rows<T>(sql: string, ...binds: unknown[]): Promise<T[]> {
  const db = await portal().db();
  return (
    await db
      .prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;
}

describe("exactly once", () => {
  it(
    "thousands of requests with duplicates, reorders, conflicts and redeliveries leave one payment per reference and a balanced ledger",
    { timeout: 240_000 },
    async () => {
      const rng = Rng.stream("exactly-once");
      const key = await makeKey(portal(), KUMASI);
      const parties = await partiesOf(portal(), KUMASI);
      const now = Date.now();
      const planned = plan(rng, parties, now);

      // Requests: every payment once or more (in batches of 1-3), every reversal once or twice,
      // some references re-sent with other content, all shuffled together.
      type Request = { path: string; body: unknown };
      const requests: Request[] = [];
      const copies = planned.flatMap((p) => Array.from({ length: 1 + Math.floor(rng.next() * 2.5) }, () => p.body));
      shuffle(rng, copies);
      for (let i = 0; i < copies.length;) {
        const size = 1 + Math.floor(rng.next() * 2.5);
        const batch = copies.slice(i, i + size);
        // A batch may not repeat a reference (400): split such copies into their own requests.
        const seen = new Set<unknown>();
        const unique = batch.filter((b) => !seen.has(b.reference) && seen.add(b.reference));
        for (const b of batch.filter((b) => !unique.includes(b))) requests.push({ path: "/api/v1/payments", body: b });
        requests.push({ path: "/api/v1/payments", body: unique.length === 1 ? unique[0] : { payments: unique } });
        i += size;
      }
      const conflicted = planned.slice(0, CONFLICTS).map((p) => ({ ...(p.body as unknown as SentPayment), amount: (p.body.amount as number) + 1 }));
      for (const body of conflicted) requests.push({ path: "/api/v1/payments", body });
      for (const p of planned.filter((x) => x.reversal)) {
        const path = `/api/v1/payments/${encodeURIComponent(p.body.reference as string)}/reversal`;
        requests.push({ path, body: p.reversal });
        if (rng.next() < 0.5) requests.push({ path, body: p.reversal });
      }
      shuffle(rng, requests);
      expect(requests.length).toBeGreaterThan(1_500);

      // Eight at a time, as a busy processor would.
      let next = 0;
      const refused: string[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < requests.length) {
            const request = requests[next++]!;
            const response = await api(portal(), key, request.path, request.body);
            if (response.status !== 202) refused.push(`${response.status} ${await response.text()}`);
          }
        }),
      );
      expect(refused).toEqual([]);

      // Redeliveries: the same queue messages the API sent, delivered again (twice, in one batch).
      const items = await Promise.all(
        planned.slice(0, REDELIVERED).map(async (p): Promise<PaymentItem> => {
          const b = p.body as unknown as SentPayment;
          const at = parties.find((x) => x.pointOfSaleId === b.point_of_sale)!;
          const item = {
            reference: b.reference,
            merchantId: at.merchantId,
            pointOfSaleId: at.pointOfSaleId,
            terminalId: null as string | null,
            channel: b.channel,
            network: b.network,
            amount: b.amount,
            status: b.status,
            failureReason: b.failure_reason ?? null,
            cardBin: b.payer.card_bin ?? null,
            cardLast4: b.payer.card_last4 ?? null,
            msisdn: b.payer.msisdn ?? null,
            occurredAt: Date.parse(b.occurred_at),
          };
          if (b.terminal_serial) {
            const db = await portal().db();
            item.terminalId = await db.prepare("SELECT id FROM terminals WHERE serial = ?").bind(b.terminal_serial).first<string>("id");
          }
          return { ...item, fingerprint: await fingerprintOf(item) };
        }),
      );
      const queue = await portal().paymentsQueue();
      for (let i = 0; i < items.length; i += 25) {
        const message: IngestMessage = { v: 1, businessId: KUMASI, receivedAt: Date.now(), payments: items.slice(i, i + 25) };
        await queue.sendBatch([{ body: message }, { body: message }]);
      }

      // Wait for the consumer: every reference held, every reversal applied, nothing waiting.
      const references = planned.map((p) => p.body.reference as string);
      const reversedRefs = planned.filter((p) => p.reversal).map((p) => p.body.reference as string);
      await eventually(
        async () => {
          const [counts] = await rows<{ held: number; reversed: number }>(
            `SELECT count(*) AS held, sum(status = 'reversed') AS reversed FROM transactions WHERE business_id = ? AND reference LIKE 'EO-%'`,
            KUMASI,
          );
          const [waiting] = await rows<{ n: number }>("SELECT count(*) AS n FROM pending_reversals WHERE business_id = ?", KUMASI);
          return counts!.held === PAYMENTS && counts!.reversed === reversedRefs.length && waiting!.n === 0;
        },
        180_000,
        "every payment and reversal to be applied",
      );
      // Any straggling redelivery lands before a payment queued after them all is applied (not an EO- reference).
      await paymentAppliedAfter(portal(), key, KUMASI, parties[0]!);

      // One payment per reference.
      const held = await rows<{ reference: string; n: number; status: string; amount: number; fingerprint: string }>(
        "SELECT reference, count(*) AS n, status, amount, fingerprint FROM transactions WHERE business_id = ? AND reference LIKE 'EO-%' GROUP BY reference",
        KUMASI,
      );
      expect(held.length).toBe(PAYMENTS);
      expect(held.filter((h) => h.n !== 1)).toEqual([]);
      expect(new Set(held.map((h) => h.reference))).toEqual(new Set(references));

      // Ledger lines per payment: 3 for a payment, 3 more for its reversal, none for a failure.
      const lines = await rows<{ reference: string; status: string; n: number; pending: number }>(
        `SELECT t.reference, t.status, count(e.id) AS n, coalesce(sum(CASE WHEN e.account_id LIKE '%_merchant_pending' THEN e.amount END), 0) AS pending
       FROM transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id WHERE t.business_id = ? AND t.reference LIKE 'EO-%' GROUP BY t.id`,
        KUMASI,
      );
      for (const line of lines) {
        const expected = line.status === "failed" ? 0 : line.status === "reversed" ? 6 : 3;
        expect(line.n, `ledger lines of ${line.reference} (${line.status})`).toBe(expected);
        if (line.status === "reversed") expect(line.pending).toBe(0);
      }

      // Every posting balances, the whole ledger sums to zero, running sums match entries.
      const unbalanced = await rows("SELECT posting_id FROM ledger_entries WHERE business_id = ? GROUP BY posting_id HAVING sum(amount) <> 0", KUMASI);
      expect(unbalanced).toEqual([]);
      await expectAccountSumsMatchEntries(portal().shards());

      // Conflicts: for each re-sent reference, one content is held and the other is kept aside.
      const conflicts = await rows<{ reference: string; fingerprint: string }>(
        "SELECT reference, fingerprint FROM payment_conflicts WHERE business_id = ? AND kind = 'payment' AND reference LIKE 'EO-%'",
        KUMASI,
      );
      expect(new Set(conflicts.map((c) => c.reference))).toEqual(new Set(conflicted.map((c) => c.reference)));
      for (const c of conflicts) expect(held.find((h) => h.reference === c.reference)!.fingerprint).not.toBe(c.fingerprint);

      // Reports read the rollups and the merchant totals: both agree with the payments.
      const truth = await rows(
        "SELECT status, count(*) AS count, sum(amount) AS amount, sum(fee) AS fee FROM transactions WHERE business_id = ? GROUP BY status ORDER BY status",
        KUMASI,
      );
      for (const table of ["daily_rollups", "daily_merchant_totals"]) {
        const sums = await rows(
          `SELECT status, sum(count) AS count, sum(amount) AS amount, sum(fee) AS fee FROM ${table} WHERE business_id = ? GROUP BY status ORDER BY status`,
          KUMASI,
        );
        expect(sums, table).toEqual(truth);
      }
      const [negative] = await rows<{ n: number }>("SELECT count(*) AS n FROM daily_rollups WHERE count <= 0 OR amount < 0 OR fee < 0");
      expect(negative!.n).toBe(0);
    },
  );
});
