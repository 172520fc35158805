// The money: payments over the window before the anchor and on into the
// anchor's day up to now (never after it), their ledger postings (through functions/ledger/ledger.ts, never a copy of its rules), the daily
// settlements of cleared money, and the daily rollups reports read. Streamed
// day by day so a million payments never sit in memory at once.
import {
  assertBalanced,
  clearingPosting,
  clearsAt,
  ledgerAccountId,
  paymentPosting,
  reversalPosting,
  settlementPosting,
  transactionFee,
  type Channel,
  type PaymentFacts,
  type PostingLine,
} from "#server/ledger/ledger";
import { exampleRecords, type ExamplePayment, type ExamplePlan } from "./api-examples";
import { CARD_BINS, CARD_SHARE, type CardScheme } from "./ghana";
import { Rng, WeightedTable } from "./prng";
import { DAY_MS, HOUR_MS, HOUR_WEIGHTS, STATUS_SHARE, SUNDAY_HOUR_WEIGHTS, TERMINAL_SHARE, WEEKDAY_WEIGHTS, type SizeProfile } from "./profile";
import {
  iso,
  mobileNumber,
  pad,
  networkOf,
  type BusinessModel,
  type MerchantModel,
  type PointOfSaleModel,
  type SeedContext,
  type TerminalModel,
} from "./structure";
import type { Chunk, DailyRollupRow, LedgerEntryRow, SettlementItemRow, SettlementRow, TransactionRow } from "./tables";

interface CardCustomer {
  scheme: CardScheme;
  bin: string;
  last4: string;
}

interface BusinessState {
  model: BusinessModel;
  rng: Rng;
  times: Rng;
  settlementRng: Rng;
  terminals: WeightedTable<TerminalModel>;
  pointsOfSale: WeightedTable<PointOfSaleModel>;
  cardPool: number;
  walletPool: number;
  cards: Map<number, CardCustomer>;
  wallets: Map<number, string>;
  settlementSeq: number;
}

interface Payment extends PaymentFacts {
  id: number;
  state: BusinessState;
  reference: string;
  channel: Channel;
}

interface Pending {
  time: number;
  payment: Payment;
}

interface Bucket {
  ids: number[];
  gross: number;
  fees: number;
}

/** A first-in first-out queue; clearings come out in the order payments went in (a fixed delay per channel). */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    const item = this.items[this.head++];
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Splits `total` over weighted cells: floors, then the remainder to the largest fractions (ties by index). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const counts = raw.map(Math.floor);
  let rest = total - counts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (rest-- <= 0) break;
    counts[i] = (counts[i] as number) + 1;
  }
  return counts;
}

function ymd(ms: number): string {
  return iso(ms).slice(0, 10);
}

/** The hours of a day as [hour, weight], cut at `limit`: an hour half gone by `limit` weighs half, hours after it are left out. */
export function hourWeights(dayStart: number, limit: number): [number, number][] {
  const weights = new Date(dayStart).getUTCDay() === 0 ? SUNDAY_HOUR_WEIGHTS : HOUR_WEIGHTS;
  const hours: [number, number][] = [];
  weights.forEach((w, h) => {
    const passed = Math.min(HOUR_MS, limit - (dayStart + h * HOUR_MS));
    if (passed > 0) hours.push([h, passed === HOUR_MS ? w : (w * passed) / HOUR_MS]);
  });
  return hours;
}

const weightOf = (hours: readonly (readonly [number, number])[]) => hours.reduce((sum, [, w]) => sum + w, 0);

/**
 * `examples` (./api-examples.ts): payments placed at given times, each in the place of the drawn payment of its business
 * nearest that time, and the disputes, refund and endpoint that name them, written after the last day.
 */
export function* activity(ctx: SeedContext, size: SizeProfile, models: readonly BusinessModel[], examples: ExamplePlan | null = null): Generator<Chunk> {
  const { anchor, now, days, windowStart } = ctx;
  const active = models.filter((m) => m.terminals.some((t) => t.transacting));
  // Day `days` is today, the anchor's day, up to now: its share of a whole day is the share of its hour weights gone by.
  const todayShare = weightOf(hourWeights(anchor, now)) / weightOf(hourWeights(anchor, anchor + DAY_MS));
  const lastDay = todayShare > 0 ? days : days - 1;

  // Transactions per business and day: weekday pattern, slow growth, a little noise. Today's cells go last, so that with
  // no part of today (now = anchor) the window's cells, and every row, are what they were before today was seeded.
  const cellWeights: number[] = [];
  const todayWeights: number[] = [];
  for (const model of active) {
    const noise = Rng.stream(`days:${model.business.id}`);
    for (let d = 0; d <= lastDay; d++) {
      const weekday = new Date(windowStart + d * DAY_MS).getUTCDay();
      const weight = model.profile.transactionShare * (WEEKDAY_WEIGHTS[weekday] as number) * (1 + (0.2 * d) / days) * (0.92 + 0.16 * noise.next());
      if (d < days) cellWeights.push(weight);
      else todayWeights.push(weight * todayShare);
    }
  }
  const cells = apportion(size.transactions, [...cellWeights, ...todayWeights]);
  const perBusiness = active.map((_, b) => [
    ...cells.slice(b * days, (b + 1) * days),
    ...(lastDay === days ? [cells[active.length * days + b] as number] : []),
  ]);

  const states: BusinessState[] = active.map((model, b) => {
    const terminals = new WeightedTable<TerminalModel>();
    for (const t of model.terminals) if (t.transacting) terminals.add(t, t.weight);
    const pointsOfSale = new WeightedTable<PointOfSaleModel>();
    for (const m of model.merchants) for (const p of m.pointsOfSale) if (p.row.status === "active") pointsOfSale.add(p, m.weight * p.weight);
    const payments = (perBusiness[b] as number[]).slice(0, days).reduce((a, c) => a + c, 0);
    return {
      model,
      rng: Rng.stream(`transactions:${model.business.id}`),
      times: Rng.stream(`times:${model.business.id}`),
      settlementRng: Rng.stream(`settlements:${model.business.id}`),
      terminals,
      pointsOfSale,
      // Returning customers: about five payments per card or wallet.
      cardPool: Math.max(40, Math.round(payments / 12)),
      walletPool: Math.max(60, Math.round(payments / 7)),
      cards: new Map(),
      wallets: new Map(),
      settlementSeq: 0,
    };
  });

  const placed = new Map<string, TransactionRow>();
  let nextTransactionId = 1;
  let nextEntryId = 1;
  let transactions: TransactionRow[] = [];
  let entries: LedgerEntryRow[] = [];
  let settlements: SettlementRow[] = [];
  let items: SettlementItemRow[] = [];

  const post = (
    businessId: string,
    lines: PostingLine[],
    postingId: string,
    postedAt: number,
    memo: string,
    transactionId: number | null,
    settlementId: string | null,
  ) => {
    assertBalanced(lines);
    for (const line of lines) {
      entries.push({
        id: nextEntryId++,
        business_id: businessId,
        posting_id: postingId,
        account_id: ledgerAccountId(businessId, line.account),
        amount: line.amount,
        transaction_id: transactionId,
        transfer_id: null,
        settlement_id: settlementId,
        memo,
        posted_at: postedAt,
      });
    }
  };

  // Events after a payment, in time order: clearings (a fixed delay per channel, so one queue each), reversals, settlement runs.
  const clearings: Record<Channel, Fifo<Pending>> = { card: new Fifo(), mobile_money: new Fifo() };
  const reversals: Pending[] = [];
  const buckets = new Map<string, Map<number, Bucket>>();
  let nextRunDay = 1;
  const runTime = (d: number) => windowStart + d * DAY_MS + 6 * HOUR_MS;
  // Today's 06:00 run only once now is past it; the last run made is still in flight.
  const lastRunDay = runTime(days) < now ? days : days - 1;

  const clear = ({ time, payment }: Pending) => {
    post(payment.state.model.business.id, clearingPosting(payment), `txn_${payment.id}_clearing`, time, `Cleared ${payment.reference}`, payment.id, null);
    let byDay = buckets.get(payment.merchantId);
    if (!byDay) buckets.set(payment.merchantId, (byDay = new Map()));
    const day = Math.floor((time - windowStart) / DAY_MS);
    let bucket = byDay.get(day);
    if (!bucket) byDay.set(day, (bucket = { ids: [], gross: 0, fees: 0 }));
    bucket.ids.push(payment.id);
    bucket.gross += payment.amount;
    bucket.fees += payment.fee;
  };

  const reverse = ({ time, payment }: Pending) => {
    post(
      payment.state.model.business.id,
      reversalPosting(payment, false),
      `txn_${payment.id}_reversal`,
      time,
      `Reversal ${payment.reference}`,
      payment.id,
      null,
    );
  };

  // At 06:00 each day, each merchant is paid what cleared the day before, to its primary account.
  const settle = (d: number) => {
    const at = runTime(d);
    const periodStart = windowStart + (d - 1) * DAY_MS;
    for (const state of states) {
      const { model, settlementRng: rng } = state;
      for (const merchant of model.merchants) {
        const bucket = buckets.get(merchant.row.id)?.get(d - 1);
        if (!bucket) continue;
        buckets.get(merchant.row.id)?.delete(d - 1);
        const id = `stl_${model.profile.short}_${pad(++state.settlementSeq, 6)}`;
        const net = bucket.gross - bucket.fees;
        const last = d === lastRunDay;
        const reference = `STL-${model.profile.prefix}-${merchant.row.code}-${ymd(periodStart).replace(/-/g, "")}`;
        settlements.push({
          id,
          business_id: model.business.id,
          merchant_id: merchant.row.id,
          settlement_account_id: merchant.primaryAccount.id,
          period_start: periodStart,
          period_end: periodStart + DAY_MS,
          gross: bucket.gross,
          fees: bucket.fees,
          net,
          // The last run is still in flight; the earlier ones were paid.
          status: last ? "pending" : "paid",
          reference,
          attempts: last ? 1 : rng.chance(0.05) ? 2 : 1,
          created_at: iso(at),
          paid_at: last ? null : iso(at + rng.int(1, 6) * HOUR_MS + rng.int(0, 3_599) * 1000),
        });
        for (const transactionId of bucket.ids) items.push({ settlement_id: id, transaction_id: transactionId });
        post(model.business.id, settlementPosting(merchant.row.id, net), `${id}_payout`, at, `Settlement ${reference}`, null, id);
      }
    }
  };

  const flushUntil = (limit: number) => {
    for (;;) {
      let kind = 0;
      let time = Number.POSITIVE_INFINITY;
      const card = clearings.card.peek();
      if (card && card.time < time) [kind, time] = [1, card.time];
      const momo = clearings.mobile_money.peek();
      if (momo && momo.time < time) [kind, time] = [2, momo.time];
      const reversal = reversals[0];
      if (reversal && reversal.time < time) [kind, time] = [3, reversal.time];
      if (nextRunDay <= lastRunDay && runTime(nextRunDay) < time) [kind, time] = [4, runTime(nextRunDay)];
      if (kind === 0 || time > limit) return;
      if (kind === 1) clear(clearings.card.shift() as Pending);
      else if (kind === 2) clear(clearings.mobile_money.shift() as Pending);
      else if (kind === 3) reverse(reversals.shift() as Pending);
      else settle(nextRunDay++);
    }
  };

  const card = (state: BusinessState): CardCustomer => {
    const k = Math.floor(state.cardPool * state.rng.next() ** 2);
    let customer = state.cards.get(k);
    if (!customer) {
      const r = Rng.stream(`card:${state.model.business.id}:${k}`);
      const scheme = r.weighted(CARD_SHARE);
      customer = { scheme, bin: r.pick(CARD_BINS[scheme]), last4: r.digits(4) };
      state.cards.set(k, customer);
    }
    return customer;
  };

  const wallet = (state: BusinessState): string => {
    const k = Math.floor(state.walletPool * state.rng.next() ** 2);
    let msisdn = state.wallets.get(k);
    if (!msisdn) {
      msisdn = mobileNumber(Rng.stream(`wallet:${state.model.business.id}:${k}`));
      state.wallets.set(k, msisdn);
    }
    return msisdn;
  };

  const amountFor = (rng: Rng, merchant: MerchantModel): number => {
    const { medianCedis, sigma, maxCedis } = merchant.sector;
    let amount = Math.round(rng.logNormal(medianCedis, sigma) * 100);
    const rounding = rng.next();
    if (rounding < 0.55) amount = Math.round(amount / 100) * 100;
    else if (rounding < 0.8) amount = Math.round(amount / 50) * 50;
    return Math.min(maxCedis * 100, Math.max(100, amount));
  };

  for (let d = 0; d <= lastDay; d++) {
    const dayStart = windowStart + d * DAY_MS;
    const day = ymd(dayStart);
    // Whole days end at midnight, today at now: a payment in the hour now is in falls before now.
    const limit = d === days ? now : dayStart + DAY_MS;
    const hours = hourWeights(dayStart, limit);
    const slots: [number, number, ExamplePayment?][] = [];
    states.forEach((state, b) => {
      const n = (perBusiness[b] as number[])[d] as number;
      for (let k = 0; k < n; k++) {
        const hourStart = dayStart + state.times.weighted(hours) * HOUR_MS;
        slots.push([hourStart + Math.floor(state.times.next() * Math.min(HOUR_MS, limit - hourStart)), b]);
      }
    });
    const exampleBusiness = examples ? states.findIndex((state) => state.model === examples.model) : -1;
    for (const example of examples?.payments ?? []) {
      if (example.at < dayStart || example.at >= limit) continue;
      let nearest = -1;
      slots.forEach(([time, b, taken], i) => {
        if (b === exampleBusiness && !taken && (nearest < 0 || Math.abs(time - example.at) < Math.abs((slots[nearest] as [number, number])[0] - example.at)))
          nearest = i;
      });
      if (nearest < 0) throw new Error(`no payment of the day to place the API example ${example.reference} in`);
      slots[nearest] = [example.at, exampleBusiness, example];
    }
    slots.sort((x, y) => x[0] - y[0] || x[1] - y[1]);

    const rollups = new Map<string, DailyRollupRow>();
    for (const [time, b, example] of slots) {
      flushUntil(time);
      const state = states[b] as BusinessState;
      const { rng, model } = state;
      const businessId = model.business.id;
      const r = rng.next();
      let status: TransactionRow["status"] =
        r < STATUS_SHARE.successful ? "successful" : r < STATUS_SHARE.successful + STATUS_SHARE.failed ? "failed" : "reversed";

      // At a terminal that was in service then, or (mobile money only) by the point of sale's QR or USSD code.
      let terminal: TerminalModel | null = null;
      if (state.terminals.size > 0 && rng.chance(TERMINAL_SHARE)) {
        for (let tries = 0; tries < 8 && !terminal; tries++) {
          const candidate = state.terminals.pick(rng);
          if (candidate.lastSeen >= time) terminal = candidate;
        }
      }
      let pointOfSale = terminal ? (terminal.pointOfSale as PointOfSaleModel) : state.pointsOfSale.pick(rng);
      let merchant = pointOfSale.merchant;
      let channel: Channel = terminal && rng.chance(Math.min(1, merchant.sector.cardShare / TERMINAL_SHARE)) ? "card" : "mobile_money";
      let amount = amountFor(rng, merchant);
      let network: string;
      let cardBin: string | null = null;
      let cardLast4: string | null = null;
      let msisdn: string | null = null;
      if (channel === "card") {
        const customer = card(state);
        network = customer.scheme;
        cardBin = customer.bin;
        cardLast4 = customer.last4;
      } else {
        msisdn = wallet(state);
        network = networkOf(msisdn);
      }
      if (example && examples) {
        // A placed payment, by card at the examples' terminal. The draws above were made all the same (and a drawn
        // reversal's below), so the payments after it are drawn as they would be.
        if (status === "reversed") {
          rng.int(10, 480);
          rng.int(0, 59);
        }
        terminal = examples.terminal;
        pointOfSale = terminal.pointOfSale as PointOfSaleModel;
        merchant = pointOfSale.merchant;
        [status, channel, amount, network, cardBin, cardLast4, msisdn] = [
          "successful",
          "card",
          example.amount,
          example.network,
          example.cardBin,
          example.cardLast4,
          null,
        ];
      }
      // A failed payment moved no money: no fee, as the ingest stores it.
      const fee = status === "failed" ? 0 : transactionFee(channel, amount);
      const id = nextTransactionId++;
      const reference = example ? example.reference : `${model.profile.prefix}-${day.slice(2).replace(/-/g, "")}-${pad(id, 7)}`;
      const clearing = clearsAt(channel, time);
      const cleared = status === "successful" && clearing < now;
      transactions.push({
        id,
        business_id: businessId,
        reference,
        merchant_id: merchant.row.id,
        point_of_sale_id: pointOfSale.row.id,
        terminal_id: terminal ? terminal.row.id : null,
        channel,
        network,
        amount,
        fee,
        status,
        card_bin: cardBin,
        card_last4: cardLast4,
        customer_msisdn: msisdn,
        created_at: time,
        cleared_at: cleared ? clearing : null,
      });
      if (example) placed.set(reference, transactions.at(-1) as TransactionRow);

      const key = `${businessId}|${merchant.row.id}|${pointOfSale.row.id}|${terminal?.row.id ?? ""}|${channel}|${network}|${status}`;
      const rollup = rollups.get(key);
      if (rollup) {
        rollup.count += 1;
        rollup.amount += amount;
        rollup.fee += fee;
      } else {
        rollups.set(key, {
          business_id: businessId,
          day,
          merchant_id: merchant.row.id,
          point_of_sale_id: pointOfSale.row.id,
          terminal_id: terminal?.row.id ?? "",
          channel,
          network,
          status,
          count: 1,
          amount,
          fee,
        });
      }

      if (status === "failed") continue;
      const payment: Payment = { id, state, reference, channel, merchantId: merchant.row.id, amount, fee };
      const what = channel === "card" ? "Card payment" : "Mobile money payment";
      post(businessId, paymentPosting(payment), `txn_${id}_payment`, time, `${what} ${reference}`, id, null);
      if (cleared) clearings[channel].push({ time: clearing, payment });
      if (status === "reversed") {
        // Reversed within hours, before the money cleared (and before now).
        const at = Math.min(now - 1, time + rng.int(10, 480) * 60_000 + rng.int(0, 59) * 1000);
        const pending = { time: at, payment };
        let i = reversals.length;
        while (i > 0 && (reversals[i - 1] as Pending).time > at) i--;
        reversals.splice(i, 0, pending);
      }
    }
    if (d === lastDay) flushUntil(now - 1);

    if (transactions.length > 0) yield { table: "transactions", rows: transactions };
    if (settlements.length > 0) yield { table: "settlements", rows: settlements };
    if (items.length > 0) yield { table: "settlement_items", rows: items };
    if (entries.length > 0) yield { table: "ledger_entries", rows: entries };
    if (rollups.size > 0) yield { table: "daily_rollups", rows: [...rollups.values()] };
    transactions = [];
    settlements = [];
    items = [];
    entries = [];
  }

  if (examples) {
    const records = exampleRecords(ctx, examples, placed);
    const businessId = examples.model.business.id;
    for (const hold of records.holds) post(businessId, hold.lines, hold.postingId, hold.at, hold.memo, hold.transactionId, null);
    yield { table: "ledger_accounts", rows: records.accounts };
    yield { table: "disputes", rows: records.disputes };
    yield { table: "ledger_entries", rows: entries };
    yield { table: "refunds", rows: records.refunds };
    yield { table: "approval_requests", rows: records.approvals };
    yield { table: "webhook_events", rows: records.events };
    yield { table: "webhook_endpoints", rows: records.endpoints };
  }
}
