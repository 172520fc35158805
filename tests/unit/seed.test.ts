// The demo-data generator (scripts/seed): deterministic, anchored in time,
// the DESIGN.md identities exactly, and rows that obey the model's rules.
import { describe, expect, it } from "vitest";
import { assertBalanced, clearsAt, ledgerAccountId, transactionFee, type PostingLine } from "#server/ledger/ledger";
import { BUSINESSES, KUMASI_FRESH_FOODS, SEED_SIZES, USERS } from "../../scripts/seed/data";
import { collectSeed, DAY_MS, seedDigest, SIZE_PROFILES, startOfUtcDay } from "../../scripts/seed/generate";
import { CARD_BINS, NETWORK_PREFIXES } from "../../scripts/seed/ghana";
import { Rng } from "../../scripts/seed/prng";
import { apportion } from "../../scripts/seed/activity";
import type { TransactionRow } from "../../scripts/seed/tables";
import { EXAMPLE_IDS } from "#server/partner-api/openapi";

// A Saturday; tests never depend on today's date.
const ANCHOR = Date.UTC(2026, 7, 1);
const tiny = collectSeed("tiny", ANCHOR);
const demo = collectSeed("demo", ANCHOR);

const PHONE = /^233(24|54|55|59|20|50|26|27|56|57)\d{7}$/;
const NETWORK_OF_PREFIX = new Map(Object.entries(NETWORK_PREFIXES).flatMap(([network, prefixes]) => prefixes.map((p) => [p, network] as const)));

describe("the PRNG", () => {
  it("gives the same numbers for the same stream, and others for another", () => {
    const a = Rng.stream("x");
    const b = Rng.stream("x");
    const c = Rng.stream("y");
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    for (const x of seqA) expect(x >= 0 && x < 1).toBe(true);
  });

  it("apportions exactly the total, by weight", () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [3, 0, 1]).reduce((a, b) => a + b, 0)).toBe(7);
  });
});

describe("determinism", () => {
  // The digests of the data written for this anchor, on any machine. A deliberate change to the
  // generator changes them: update them in the same change.
  const TINY_DIGEST = "3a1909cefe5f29d47e6874a0bfcb91abb4d40326c346ebf2a94fa27ae986ab21";
  const DEMO_DIGEST = "f1d4479c24cfe4657db5d61979e4214537879042d987c6410f5cf9bd6dd7591c";

  it("the same size and anchor give byte-identical data", () => {
    expect(seedDigest("tiny", ANCHOR)).toBe(TINY_DIGEST);
    expect(seedDigest("tiny", ANCHOR)).toBe(TINY_DIGEST);
    expect(seedDigest("demo", ANCHOR)).toBe(DEMO_DIGEST);
    // Generating the demo seed twice takes seconds; more on a loaded 2-core machine.
  }, 30_000);

  it("a different anchor gives different data; a week later, the same payments a week later", () => {
    const later = ANCHOR + 7 * DAY_MS;
    expect(seedDigest("tiny", later)).not.toBe(seedDigest("tiny", ANCHOR));
    const shifted = collectSeed("tiny", later);
    expect(shifted.transactions).toHaveLength(tiny.transactions.length);
    const strip = ({ reference: _r, created_at: _c, cleared_at: _d, ...rest }: TransactionRow) => rest;
    shifted.transactions.forEach((t, i) => {
      const before = tiny.transactions[i] as TransactionRow;
      expect(t.created_at - before.created_at).toBe(7 * DAY_MS);
      expect(t.cleared_at === null ? null : t.cleared_at - (before.cleared_at as number)).toBe(before.cleared_at === null ? null : 7 * DAY_MS);
      expect(strip(t)).toEqual(strip(before));
    });
    expect(Date.parse(shifted.merchants[0]!.created_at) - Date.parse(tiny.merchants[0]!.created_at)).toBe(7 * DAY_MS);
  });

  it("refuses an anchor that is not the start of a UTC day", () => {
    expect(() => collectSeed("tiny", ANCHOR + 1)).toThrow(/start of a UTC day/);
    expect(startOfUtcDay(ANCHOR + 13 * 3_600_000)).toBe(ANCHOR);
  });
});

describe("the DESIGN.md section 8 identities", () => {
  it("are unchanged and present in every size", () => {
    const people = [
      ["ama.mensah@example.com", { [KUMASI_FRESH_FOODS]: "Super Administrator", bus_accra_mobile_pay: "Administrator" }],
      ["kofi.boateng@example.com", { [KUMASI_FRESH_FOODS]: "Administrator" }],
      ["esi.owusu@example.com", { [KUMASI_FRESH_FOODS]: "Operations" }],
      ["yaw.asante@example.com", { bus_accra_mobile_pay: "Viewer" }],
      ["abena.darko@example.com", { [KUMASI_FRESH_FOODS]: "Finance" }],
    ] as const;
    for (const [email, roles] of people) {
      const user = USERS.find((u) => u.email === email);
      expect(user?.roles).toEqual(roles);
      expect(user?.sizes).toEqual(SEED_SIZES);
    }
    expect(USERS.find((u) => u.email === "ama.mensah@example.com")?.phones).toEqual(["233244123456", "233209876543"]);
    expect(BUSINESSES.map((b) => [b.id, b.name])).toEqual([
      ["bus_kumasi_fresh_foods", "Kumasi Fresh Foods"],
      ["bus_accra_mobile_pay", "Accra Mobile Pay"],
      ["bus_tamale_shea_collective", "Tamale Shea Collective"],
    ]);
    for (const data of [tiny, demo]) {
      const memberships = data.memberships.map((m) => `${m.user_id} ${m.business_id} ${m.role}`);
      expect(memberships).toEqual(
        expect.arrayContaining(["usr_ama_mensah bus_kumasi_fresh_foods Super Administrator", "usr_esi_owusu bus_kumasi_fresh_foods Operations"]),
      );
    }
  });
});

describe("sizes", () => {
  it("tiny and demo hold what the issue asks", () => {
    expect(tiny.businesses).toHaveLength(2);
    expect(tiny.merchants).toHaveLength(6);
    expect(tiny.points_of_sale).toHaveLength(12);
    expect(tiny.terminals.length).toBeGreaterThanOrEqual(16);
    expect(tiny.terminals.length).toBeLessThanOrEqual(26);
    expect(tiny.transactions).toHaveLength(500);
    expect(demo.businesses).toHaveLength(3);
    expect(demo.merchants.length).toBeGreaterThanOrEqual(24);
    expect(demo.merchants.length).toBeLessThanOrEqual(99);
    expect(demo.terminals.length).toBeGreaterThanOrEqual(200);
    expect(demo.terminals.length).toBeLessThan(1000);
    expect(demo.transactions).toHaveLength(50_000);
    expect(SIZE_PROFILES.large).toMatchObject({ transactions: 1_000_000, days: 365 });
  });

  it("spreads payments over the window before the anchor", () => {
    for (const [size, data] of [
      ["tiny", tiny],
      ["demo", demo],
    ] as const) {
      const start = ANCHOR - SIZE_PROFILES[size].days * DAY_MS;
      const times = data.transactions.map((t) => t.created_at);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(start);
      expect(Math.min(...times)).toBeLessThan(start + 2 * DAY_MS);
      expect(Math.max(...times)).toBeLessThan(ANCHOR);
      expect(Math.max(...times)).toBeGreaterThan(ANCHOR - DAY_MS);
    }
  });
});

describe("transactions", () => {
  const all = [...tiny.transactions, ...demo.transactions];

  it("cards carry a scheme BIN and last four only; mobile money a number on its network", () => {
    const card = (t: TransactionRow) =>
      (CARD_BINS[t.network as keyof typeof CARD_BINS] as readonly (string | null)[] | undefined)?.includes(t.card_bin) === true &&
      /^\d{4}$/.test(t.card_last4 ?? "") &&
      t.customer_msisdn === null &&
      t.terminal_id !== null;
    const momo = (t: TransactionRow) =>
      PHONE.test(t.customer_msisdn ?? "") &&
      NETWORK_OF_PREFIX.get((t.customer_msisdn ?? "").slice(3, 5)) === t.network &&
      t.card_bin === null &&
      t.card_last4 === null;
    expect(all.filter((t) => !(t.channel === "card" ? card(t) : t.channel === "mobile_money" && momo(t)))).toEqual([]);
    expect(all.some((t) => t.channel === "card")).toBe(true);
    const visaBins = new Set(CARD_BINS.VISA);
    expect([...visaBins].every((bin) => bin.startsWith("4"))).toBe(true);
  });

  it("charge the fee of functions/ledger/ledger.ts (none on a failed payment, decision 034) and clear when it says", () => {
    const fee = (t: TransactionRow) => (t.status === "failed" ? 0 : transactionFee(t.channel, t.amount));
    expect(all.filter((t) => t.status === "failed")).not.toEqual([]);
    expect(all.filter((t) => t.fee !== fee(t) || !Number.isSafeInteger(t.amount) || t.amount < 100)).toEqual([]);
    const clearing = (t: TransactionRow) => {
      const clears = clearsAt(t.channel, t.created_at);
      return t.status === "successful" && clears < ANCHOR ? clears : null;
    };
    expect(all.filter((t) => t.cleared_at !== clearing(t))).toEqual([]);
    expect(all.filter((t) => t.cleared_at !== null).length).toBeGreaterThan(all.length * 0.8);
  });

  it("have unique references and integer ids in time order", () => {
    for (const data of [tiny, demo]) {
      const refs = new Set(data.transactions.map((t) => t.reference));
      expect(refs.size).toBe(data.transactions.length);
      const outOfOrder = data.transactions.filter(
        (t, i) => t.id !== i + 1 || (i > 0 && t.created_at < (data.transactions[i - 1] as TransactionRow).created_at),
      );
      expect(outOfOrder).toEqual([]);
    }
  });

  it("mix about 92 % successful, 6 % failed, 2 % reversed, with many small amounts and some large", () => {
    const share = (status: string) => demo.transactions.filter((t) => t.status === status).length / demo.transactions.length;
    expect(share("successful")).toBeCloseTo(0.92, 1);
    expect(share("failed")).toBeGreaterThan(0.045);
    expect(share("failed")).toBeLessThan(0.075);
    expect(share("reversed")).toBeGreaterThan(0.012);
    expect(share("reversed")).toBeLessThan(0.028);
    const amounts = demo.transactions.map((t) => t.amount).sort((a, b) => a - b);
    const median = amounts[amounts.length >> 1] as number;
    const mean = amounts.reduce((a, b) => a + b, 0) / amounts.length;
    expect(median).toBeLessThan(mean);
    expect(amounts[amounts.length - 1]).toBeGreaterThan(50 * median);
    const channels = new Set(demo.transactions.map((t) => `${t.channel} ${t.network}`));
    expect(channels).toEqual(new Set(["card VISA", "card MASTERCARD", "card GHLINK", "mobile_money MTN", "mobile_money Telecel", "mobile_money AirtelTigo"]));
  });

  it("follow the week and the day: busy 8–20 h, quieter on Sundays", () => {
    const byHour = new Array<number>(24).fill(0);
    const byWeekday = new Array<number>(7).fill(0);
    for (const t of demo.transactions) {
      const d = new Date(t.created_at);
      byHour[d.getUTCHours()]! += 1;
      byWeekday[d.getUTCDay()]! += 1;
    }
    const daytime = byHour.slice(8, 21).reduce((a, b) => a + b, 0);
    expect(daytime / demo.transactions.length).toBeGreaterThan(0.8);
    expect(byHour[3]).toBeLessThan((byHour[12] as number) / 10);
    const weekdays = byWeekday.slice(1).reduce((a, b) => a + b, 0) / 6;
    expect(byWeekday[0]).toBeLessThan(weekdays * 0.75);
  });

  it("happen at terminals of their own point of sale, in service at the time", () => {
    for (const data of [tiny, demo]) {
      const terminals = new Map(data.terminals.map((t) => [t.id, t]));
      const pos = new Map(data.points_of_sale.map((p) => [p.id, p]));
      const wrong = data.transactions.filter((t) => {
        const point = pos.get(t.point_of_sale_id);
        if (point?.merchant_id !== t.merchant_id || point.status !== "active") return true;
        if (t.terminal_id === null) return false;
        const terminal = terminals.get(t.terminal_id);
        return (
          terminal?.point_of_sale_id !== t.point_of_sale_id ||
          !["active", "blocked", "faulty"].includes(terminal.status) ||
          (terminal.last_seen_at ?? 0) < t.created_at
        );
      });
      expect(wrong).toEqual([]);
      expect(data.transactions.filter((t) => t.terminal_id === null).length).toBeGreaterThan(0);
    }
  });
});

describe("the standing data", () => {
  const both = [tiny, demo];

  it("uses real Ghanaian mobile prefixes everywhere", () => {
    for (const data of both) {
      for (const m of data.merchants) expect(m.contact_phone).toMatch(PHONE);
      for (const p of data.points_of_sale) expect(p.contact_phone).toMatch(PHONE);
      for (const a of data.settlement_accounts.filter((a) => a.kind === "mobile_money")) {
        expect(`233${a.account_number.slice(1)}`).toMatch(PHONE);
        expect(NETWORK_OF_PREFIX.get(a.account_number.slice(1, 3))).toBe(a.provider);
      }
    }
  });

  it("has names written in Akan, Ga and Ewe letters, and one with an emoji, in every list and size", () => {
    const spelled = /[ƆɔƐɛŊŋ]/;
    const emoji = /\p{Extended_Pictographic}/u;
    for (const data of both) {
      expect(data.merchants.filter((m) => spelled.test(m.name)).length).toBeGreaterThanOrEqual(2);
      expect(data.points_of_sale.some((p) => spelled.test(p.name))).toBe(true);
    }
    expect(demo.merchants.map((m) => m.trading_name)).toEqual(
      expect.arrayContaining(["Ɔhemaa Chop Bar", "Ŋutifafa Transport Services", "Yaw's 🍍 Fruits & Vegetables"]),
    );
    expect(demo.merchants.some((m) => emoji.test(m.name))).toBe(true);
    for (const letter of ["Ɔ", "Ɛ", "Ŋ"])
      expect(
        demo.points_of_sale.some((p) => p.name.toUpperCase().includes(letter)),
        letter,
      ).toBe(true);
    expect(demo.users.find((u) => spelled.test(u.name))).toMatchObject({ name: "Nyamekyɛ Ɔpare" });
    // Their contacts' emails stay plain ASCII addresses.
    expect(demo.merchants.find((m) => m.trading_name === "Ɔhemaa Chop Bar")?.contact_email).toMatch(/@ohemaachopbar\.example\.com$/);
  });

  it("gives merchants valid, unique TINs and codes, towns with their regions", () => {
    for (const data of both) {
      for (const business of data.businesses) {
        const merchants = data.merchants.filter((m) => m.business_id === business.id);
        expect(new Set(merchants.map((m) => m.tin)).size).toBe(merchants.length);
        expect(new Set(merchants.map((m) => m.code)).size).toBe(merchants.length);
      }
      for (const m of data.merchants) {
        expect(m.tin).toMatch(/^[PCGQ]\d{10}$/);
        expect(m.contact_email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/);
      }
    }
    expect(demo.merchants.find((m) => m.town === "Tamale")?.region).toBe("Northern");
    expect(new Set(demo.merchants.map((m) => m.region)).size).toBeGreaterThan(3);
  });

  it("has exactly one primary active settlement account per merchant, with valid account numbers", () => {
    for (const data of both) {
      for (const m of data.merchants) {
        const primaries = data.settlement_accounts.filter((a) => a.merchant_id === m.id && a.is_primary === 1 && a.status === "active");
        expect(primaries).toHaveLength(1);
      }
      for (const a of data.settlement_accounts) {
        expect(a.account_number).toMatch(/^\d+(-\d+)?$/);
        expect(a.account_number.length).toBeGreaterThanOrEqual(9);
        expect(a.account_number.length).toBeLessThanOrEqual(12);
      }
    }
  });

  it("has terminals that respect the CHECKs: unique serials, mostly active, some stock, a few out of service, some silent", () => {
    for (const data of both) {
      expect(new Set(data.terminals.map((t) => t.serial)).size).toBe(data.terminals.length);
      for (const t of data.terminals) {
        expect(t.serial.length).toBeGreaterThanOrEqual(6);
        if (["assigned", "active"].includes(t.status)) expect(t.point_of_sale_id).not.toBeNull();
        if (["in_stock", "retired"].includes(t.status)) expect(t.point_of_sale_id).toBeNull();
        expect(t.merchant_id === null).toBe(t.point_of_sale_id === null);
      }
      const status = (s: string) => data.terminals.filter((t) => t.status === s).length;
      expect(status("active")).toBeGreaterThan(data.terminals.length / 2);
      expect(status("in_stock")).toBeGreaterThan(0);
      expect(status("retired")).toBeGreaterThan(0);
      expect(status("faulty") + status("blocked")).toBeGreaterThan(0);
      const silent = data.terminals.filter((t) => t.status === "active" && (t.last_seen_at as number) < ANCHOR - DAY_MS);
      expect(silent.length).toBeGreaterThan(0);
      // One open assignment per terminal in the field, at its point of sale.
      for (const t of data.terminals.filter((t) => t.point_of_sale_id !== null)) {
        const open = data.terminal_assignments.filter((a) => a.terminal_id === t.id && a.unassigned_at === null);
        expect(open.map((a) => a.point_of_sale_id)).toEqual([t.point_of_sale_id]);
      }
    }
    expect(new Set(demo.terminals.map((t) => t.model))).toEqual(
      new Set(["PAX A920", "PAX A920 Pro", "PAX A80", "Sunmi P2", "Sunmi P2 Pro", "Verifone V240m", "Ingenico Move/5000"]),
    );
  });
});

describe("the ledger", () => {
  it("posts every payment through balanced postings to accounts that exist", () => {
    for (const data of [tiny, demo]) {
      const accounts = new Set(data.ledger_accounts.map((a) => a.id));
      const postings = new Map<string, PostingLine[]>();
      expect(data.ledger_entries.filter((e) => !accounts.has(e.account_id))).toEqual([]);
      for (const e of data.ledger_entries) {
        const lines = postings.get(e.posting_id) ?? [];
        lines.push({ account: { kind: "fee_revenue" }, amount: e.amount });
        postings.set(e.posting_id, lines);
      }
      const unbalanced = [...postings].filter(([, lines]) => {
        try {
          assertBalanced(lines);
          return false;
        } catch {
          return true;
        }
      });
      expect(unbalanced).toEqual([]);
      const posted = new Set(data.ledger_entries.map((e) => e.transaction_id));
      expect(data.transactions.filter((t) => posted.has(t.id) !== (t.status !== "failed"))).toEqual([]);
      for (const b of data.businesses) expect(accounts.has(ledgerAccountId(b.id, { kind: "scheme_receivable" }))).toBe(true);
      // And the held money's account of a merchant whose payment is disputed (the API examples' disputes, in demo).
      const held = new Set(data.disputes.map((d) => d.merchant_id)).size;
      expect(data.ledger_accounts).toHaveLength(data.businesses.length * 3 + data.merchants.length * 2 + held);
    }
  });
});

describe("pending approval requests", () => {
  it("of every kind in Kumasi Fresh Foods, made by the Operations maker (and employees by the Super Administrator)", () => {
    for (const data of [tiny, demo]) {
      const requests = data.approval_requests.filter((r) => r.business_id === KUMASI_FRESH_FOODS && r.status === "pending");
      const kinds = new Set(requests.map((r) => r.kind));
      // demo also has the refund the API examples read (scripts/seed/api-examples.ts).
      expect(kinds).toEqual(new Set(["employee", "merchant", "point_of_sale", "settlement_account", ...(data === demo ? ["refund"] : [])]));
      for (const r of requests) expect(r.maker_id).toBe(r.kind === "employee" ? "usr_ama_mensah" : "usr_esi_owusu");
      const esi = new Set(requests.filter((r) => r.maker_id === "usr_esi_owusu").map((r) => r.action));
      expect(esi).toEqual(new Set(["create", "update", "deactivate"]));
      expect(new Set(requests.map((r) => `${r.kind} ${r.target_id}`)).size).toBe(requests.length);
    }
  });

  it("follow the approvals engine's contract", () => {
    const data = demo;
    type Versioned = { id: string; version: number };
    const rows: Record<string, readonly Versioned[]> = {
      merchant: data.merchants,
      point_of_sale: data.points_of_sale,
      settlement_account: data.settlement_accounts,
    };
    const CREATE_COLUMNS: Record<string, string[]> = {
      merchant: ["address", "code", "contact_email", "contact_name", "contact_phone", "name", "region", "sector", "tin", "town", "trading_name"],
      point_of_sale: ["address", "contact_phone", "merchant_id", "name", "region", "town"],
      settlement_account: ["account_name", "account_number", "is_primary", "kind", "merchant_id", "provider"],
    };
    for (const r of data.approval_requests) {
      const after = JSON.parse(r.after_json) as Record<string, unknown>;
      const before = r.before_json === null ? null : (JSON.parse(r.before_json) as Record<string, unknown>);
      if (r.action === "create") {
        expect(before).toBeNull();
        expect(r.target_version).toBeNull();
        for (const column of ["id", "business_id", "status", "created_at", "updated_at", "version"]) expect(after).not.toHaveProperty(column);
      } else {
        expect(Object.keys(before ?? {}).sort()).toEqual(Object.keys(after).sort());
      }
      if (r.action === "deactivate") expect(after).toEqual({ status: r.kind === "employee" ? "deactivated" : "inactive" });
      if (r.kind === "employee") {
        if (r.action === "create") expect(Object.keys(after).sort()).toEqual(["email", "gender", "name", "phone", "role"]);
        continue;
      }
      // A refund is asked for as functions/refunds/refund-requests.db.ts asks: its row waits, named by the request.
      if (r.kind === "refund") {
        expect(data.refunds.find((refund) => refund.id === r.target_id)).toMatchObject({
          status: "pending_approval",
          requested_by: r.maker_id,
          amount: after.amount,
        });
        expect(Object.keys(after).sort()).toEqual(["already_refunded", "amount", "merchant", "merchant_id", "payment_amount", "payment_reference", "reason"]);
        continue;
      }
      const target = rows[r.kind]?.find((row) => row.id === r.target_id);
      if (r.action === "create") {
        expect(target).toBeUndefined();
        expect(Object.keys(after).sort()).toEqual(CREATE_COLUMNS[r.kind]);
      } else {
        expect(target).toBeDefined();
        expect(r.target_version).toBe(target?.version);
        for (const [column, value] of Object.entries(before ?? {})) expect((target as unknown as Record<string, unknown>)[column]).toBe(value);
      }
    }
  });
});

describe("seeded during the day: the data reaches up to now, and nothing lies after it", () => {
  // 10:00 on the anchor's day (a Saturday), and 05:00 (before the day's 06:00 settlement run).
  const NOW = ANCHOR + 10 * 3_600_000;
  const EARLY = ANCHOR + 5 * 3_600_000;
  const sized = [
    ["tiny", collectSeed("tiny", ANCHOR, NOW)],
    ["demo", collectSeed("demo", ANCHOR, NOW)],
  ] as const;

  it("has today's payments before now, none at or after it, and still exactly the size's count", () => {
    for (const [size, data] of sized) {
      expect(data.transactions).toHaveLength(SIZE_PROFILES[size].transactions);
      const today = data.transactions.filter((t) => t.created_at >= ANCHOR);
      expect(today.length).toBeGreaterThan(0);
      expect(data.transactions.filter((t) => t.created_at >= NOW)).toEqual([]);
      // Today's share: what 10 of a Saturday's hours weigh, about a fifth of a day's payments.
      const perDay = SIZE_PROFILES[size].transactions / SIZE_PROFILES[size].days;
      expect(today.length).toBeGreaterThan(perDay * 0.1);
      expect(today.length).toBeLessThan(perDay * 0.5);
      expect(data.daily_rollups.filter((r) => r.day === "2026-08-01").reduce((n, r) => n + r.count, 0)).toBe(today.length);
    }
  });

  it("clears only what cleared before now, and writes no ledger line, reversal, settlement or approval after it", () => {
    for (const [, data] of sized) {
      const clearing = (t: TransactionRow) => {
        const clears = clearsAt(t.channel, t.created_at);
        return t.status === "successful" && clears < NOW ? clears : null;
      };
      expect(data.transactions.filter((t) => t.cleared_at !== clearing(t))).toEqual([]);
      // Mobile money from yesterday morning cleared this morning.
      expect(data.transactions.some((t) => t.cleared_at !== null && t.cleared_at >= ANCHOR)).toBe(true);
      expect(data.ledger_entries.filter((e) => e.posted_at >= NOW)).toEqual([]);
      expect(data.settlements.filter((s) => Date.parse(s.created_at) >= NOW || (s.paid_at !== null && Date.parse(s.paid_at) >= NOW))).toEqual([]);
      expect(data.approval_requests.filter((r) => Date.parse(r.made_at) >= NOW)).toEqual([]);
      expect(data.terminals.filter((t) => t.last_seen_at !== null && t.last_seen_at >= NOW)).toEqual([]);
    }
  });

  it("keeps every posting balanced, today's too, and posts each payment but the failed ones", () => {
    for (const [, data] of sized) {
      const postings = new Map<string, number>();
      for (const e of data.ledger_entries) postings.set(e.posting_id, (postings.get(e.posting_id) ?? 0) + e.amount);
      expect([...postings].filter(([, sum]) => sum !== 0)).toEqual([]);
      const posted = new Set(data.ledger_entries.map((e) => e.transaction_id));
      expect(data.transactions.filter((t) => posted.has(t.id) !== (t.status !== "failed"))).toEqual([]);
      const cleared = new Set(data.ledger_entries.filter((e) => e.posting_id.endsWith("_clearing")).map((e) => e.transaction_id));
      expect(data.transactions.filter((t) => cleared.has(t.id) !== (t.cleared_at !== null))).toEqual([]);
    }
  });

  it("makes today's 06:00 run once it is past, paying yesterday's cleared money; before 06:00, yesterday's run is the last", () => {
    const [, data] = sized[0];
    const run = Date.parse("2026-08-01T06:00:00.000Z");
    const todays = data.settlements.filter((s) => s.created_at === "2026-08-01T06:00:00.000Z");
    expect(todays.length).toBeGreaterThan(0);
    for (const s of todays) {
      expect(s).toMatchObject({ period_start: ANCHOR - DAY_MS, status: "pending", paid_at: null });
      const ids = new Set(data.settlement_items.filter((i) => i.settlement_id === s.id).map((i) => i.transaction_id));
      const paid = data.transactions.filter((t) => ids.has(t.id));
      expect(paid.every((t) => t.cleared_at !== null && t.cleared_at >= ANCHOR - DAY_MS && t.cleared_at < ANCHOR)).toBe(true);
      expect(paid.reduce((n, t) => n + t.amount - t.fee, 0)).toBe(s.net);
    }
    expect(data.settlements.filter((s) => s.status === "pending").every((s) => Date.parse(s.created_at) === run)).toBe(true);
    const early = collectSeed("tiny", ANCHOR, EARLY);
    expect(early.settlements.filter((s) => Date.parse(s.created_at) >= ANCHOR)).toEqual([]);
    expect(early.settlements.filter((s) => s.status === "pending").every((s) => s.period_start === ANCHOR - 2 * DAY_MS)).toBe(true);
    expect(early.transactions.filter((t) => t.created_at >= EARLY)).toEqual([]);
  });

  it("is deterministic for the same size, anchor and now, refuses a now outside the anchor's day, and defaults to the anchor", () => {
    expect(seedDigest("tiny", ANCHOR, NOW)).toBe(seedDigest("tiny", ANCHOR, NOW));
    expect(seedDigest("tiny", ANCHOR, NOW)).not.toBe(seedDigest("tiny", ANCHOR));
    expect(seedDigest("tiny", ANCHOR, ANCHOR)).toBe(seedDigest("tiny", ANCHOR));
    expect(() => collectSeed("tiny", ANCHOR, ANCHOR - 1)).toThrow(/within the anchor's UTC day/);
    expect(() => collectSeed("tiny", ANCHOR, ANCHOR + DAY_MS)).toThrow(/within the anchor's UTC day/);
  });

  it("keeps a terminal silent for over a day at now", () => {
    for (const [, data] of sized) {
      expect(data.terminals.some((t) => t.status === "active" && (t.last_seen_at as number) < NOW - DAY_MS)).toBe(true);
    }
  });
});

describe("what the Partner API's examples name (scripts/seed/api-examples.ts)", () => {
  // Seeded at 06:30, just after the day's settlement run, and at midnight: the example payment's net is unsettled either way.
  const cases = [ANCHOR + 6.5 * 3_600_000, ANCHOR].map((now) => [new Date(now).toISOString(), now, collectSeed("demo", ANCHOR, now)] as const);

  it.each(cases)("holds every id the examples name, seeded at %s", (_, now, data) => {
    const terminal = data.terminals.find((t) => t.serial === EXAMPLE_IDS.terminalSerial);
    expect(terminal).toMatchObject({ status: "active", merchant_id: EXAMPLE_IDS.merchant, point_of_sale_id: EXAMPLE_IDS.pointOfSale });
    expect(data.points_of_sale.find((p) => p.id === EXAMPLE_IDS.pointOfSale)).toMatchObject({ merchant_id: EXAMPLE_IDS.merchant, status: "active" });
    const payment = data.transactions.find((t) => t.reference === EXAMPLE_IDS.payment)!;
    expect(payment).toMatchObject({ status: "successful", channel: "card", terminal_id: terminal?.id, amount: 12_550 });
    // Cleared, and not settled yet: its net is in the merchant's available money, which a refund needs.
    expect(payment.cleared_at).toBeLessThan(now);
    expect(data.settlement_items.some((i) => i.transaction_id === payment.id)).toBe(false);
    for (const id of [EXAMPLE_IDS.dispute, EXAMPLE_IDS.disputeToClose]) {
      const dispute = data.disputes.find((d) => d.id === id)!;
      expect(dispute).toMatchObject({ status: "open", merchant_id: EXAMPLE_IDS.merchant });
      expect(dispute.opened_at).toBeLessThan(now);
      expect(dispute.evidence_due_at).toBeGreaterThan(now + 7 * DAY_MS);
      expect(
        data.ledger_entries
          .filter((e) => e.posting_id === `pst_${id}_hold`)
          .map((e) => e.amount)
          .sort(),
      ).toEqual([-dispute.amount, dispute.amount]);
    }
    expect(data.refunds.find((r) => r.id === EXAMPLE_IDS.refund)).toMatchObject({ transaction_id: payment.id, status: "pending_approval" });
    expect(data.webhook_events.find((e) => e.id === EXAMPLE_IDS.event)).toMatchObject({ type: "dispute.opened" });
    expect(data.webhook_endpoints.find((e) => e.id === EXAMPLE_IDS.webhookEndpoint)).toMatchObject({ status: "enabled" });
    // The examples' payments are in the place of drawn ones: the count stays the size's.
    expect(data.transactions).toHaveLength(SIZE_PROFILES.demo.transactions);
  });

  it("holds none of them in tiny", () => {
    expect([tiny.disputes, tiny.refunds, tiny.webhook_events, tiny.webhook_endpoints].map((rows) => rows.length)).toEqual([0, 0, 0, 0]);
    expect(tiny.transactions.filter((t) => t.reference.startsWith("PSP-"))).toEqual([]);
  });
});
