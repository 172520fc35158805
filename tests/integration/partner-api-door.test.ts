// One normaliser at the door (decision 030), against the built Worker with its PAYMENTS consumer: what the door accepts the
// consumer can apply (times the schema took but Date.parse could not read, days the calendar lacks), and what
// it refuses is said whole: missing fields named, every problem listed, another business's ids answered as
// unknown ones, a stale heartbeat answered as not applied.
import { beforeAll, describe, expect, it } from "vitest";
import { ACCRA, KUMASI } from "../support/tenants";
import { answerOf, api, cardPayment, eventually, makeKey, momoPayment, partiesOf, paymentAppliedAfter, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "1000" } });
let key: string;
let kumasi: Parties[];
let accra: Parties[];

beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  kumasi = await partiesOf(portal(), KUMASI);
  accra = await partiesOf(portal(), ACCRA);
});

type Problem = { code: string; message: string; errors?: { path: string; message: string }[] };

async function answer(path: string, body: unknown): Promise<{ status: number; body: Problem }> {
  return (await answerOf(await api(portal(), key, path, body))) as { status: number; body: Problem };
}

const DAY = 86_400_000;
const beat = (sentAt: string) => ({ battery_percent: 50, signal_percent: 50, software_version: "1.0", sent_at: sentAt });

/** The latest day 31 (or 29/30 February) within the last 60 days that the calendar does not have, as YYYY-MM-DD. */
function recentImpossibleDay(): string {
  for (let back = 0; back < 60; back++) {
    const day = new Date(Date.now() - back * DAY);
    const [y, m] = [day.getUTCFullYear(), day.getUTCMonth() + 1];
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    if (last < 31) return `${y}-${String(m).padStart(2, "0")}-${last + 1}`;
  }
  throw new Error("no short month in 60 days");
}

describe("times the consumer could not read are refused at the door", () => {
  it("occurred_at with a zone of hours alone (+01) or a space before the zone is a 400 naming the field, not a 202 that poisons the queue", async () => {
    const now = new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 19);
    for (const occurredAt of [`${now}+01`, `${now} +00:00`]) {
      const payment = momoPayment(kumasi[0]!, { occurred_at: occurredAt });
      const { status, body } = await answer("/api/v1/payments", { payments: [payment] });
      expect(status, occurredAt).toBe(400);
      expect(body.errors).toEqual([{ path: "payments[0].occurred_at", message: expect.stringMatching(/^must be a time like 2026-11-23T10:15:00Z/) }]);
    }
    // Reversals and heartbeats took them too, and the consumer dropped them as malformed.
    const reversal = await answer("/api/v1/payments/REF-ANY-1/reversal", { reason: "Asked", reversed_at: `${now}+01` });
    expect(reversal.status).toBe(400);
    expect(reversal.body.errors?.map((e) => e.path)).toEqual(["reversed_at"]);
    const heartbeat = await answer(`/api/v1/terminals/${kumasi[0]!.serial}/heartbeats`, beat(`${now} +00:00`));
    expect(heartbeat.status).toBe(400);
    expect(heartbeat.body.errors?.map((e) => e.path)).toEqual(["sent_at"]);
  });

  it("a day the calendar lacks (31 September) is refused, not moved to the 1st of the next month", async () => {
    const day = recentImpossibleDay();
    const payment = momoPayment(kumasi[0]!, { occurred_at: `${day}T10:00:00Z` });
    const { status, body } = await answer("/api/v1/payments", payment);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ path: "occurred_at", message: expect.stringMatching(/^has no day (29|30|31) in \w+ \d{4} \(it has (28|29|30) days\)$/) }]);
    await paymentAppliedAfter(portal(), key, KUMASI, kumasi[0]!);
    expect((await api(portal(), key, `/api/v1/payments/${payment.reference as string}`)).status).toBe(404);
  });

  it("a dispute's evidence_due_by of 30 February is refused, not 2 March", async () => {
    const year = new Date().getUTCFullYear() + 1;
    const { status, body } = await answer("/api/v1/disputes", {
      payment_reference: "NO-SUCH-PAYMENT-1",
      reason_code: "13.1",
      amount: 100,
      currency: "GHS",
      evidence_due_by: `${year}-02-30`,
    });
    expect(status).toBe(400);
    expect(body.errors).toContainEqual({ path: "evidence_due_by", message: `has no day 30 in February ${year} (it has ${year % 4 === 0 ? 29 : 28} days)` });
  });

  it("a time with any zone and fraction is applied as the instant it names", async () => {
    const at = Date.now() - 2 * 60 * 60_000;
    const inAccraPlus = new Date(at + 5 * 60 * 60_000 + 45 * 60_000).toISOString().slice(0, 19) + ".123456789+05:45";
    const payment = momoPayment(kumasi[0]!, { occurred_at: inAccraPlus });
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
    let got: Record<string, unknown> = {};
    await eventually(async () => {
      const response = await api(portal(), key, `/api/v1/payments/${payment.reference as string}`);
      got = response.status === 200 ? await response.json() : {};
      return response.status === 200;
    });
    expect(got.occurred_at).toBe(new Date(Math.floor(at / 1000) * 1000 + 123).toISOString());
  });
});

describe("validation answers", () => {
  it("a missing field names the field; an unknown field says it is not documented", async () => {
    const { merchant: _merchant, ...withoutMerchant } = momoPayment(kumasi[0]!);
    const { status, body } = await answer("/api/v1/payments", { payments: [withoutMerchant, momoPayment(kumasi[0]!, { colour: "red" })] });
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      { path: "payments[0].merchant", message: "is required" },
      { path: "payments[1].colour", message: "is not a documented field" },
    ]);
    const reversal = await answer("/api/v1/payments/REF-ANY-2/reversal", { reason: "Asked" });
    expect(reversal.body.errors).toEqual([{ path: "reversed_at", message: "is required" }]);
  });

  it("every problem of a request is listed, a type error included: the rules across fields and the parties of the other items too", async () => {
    const payments = [
      momoPayment(kumasi[0]!, { amount: "12.50", network: "VISA" }),
      momoPayment(kumasi[0]!, { merchant: "mer_nobody_at_all" }),
      momoPayment(kumasi[0]!, { occurred_at: new Date(Date.now() + 3_600_000).toISOString() }),
    ];
    const { status, body } = await answer("/api/v1/payments", { payments });
    expect(status).toBe(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: "payments[0].amount", message: "must be a number" },
        { path: "payments[0].network", message: "does not go with the channel" },
        { path: "payments[1].merchant", message: "is no merchant of this business" },
        { path: "payments[2].occurred_at", message: "is in the future" },
      ]),
    );
    expect(body.errors).toHaveLength(4);
    expect(body.message).toBe("The request has 4 problems.");
  });

  it("another business's merchant, point of sale or terminal is answered exactly as an unknown one, with the item's path in a batch", async () => {
    const own = kumasi[0]!;
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ merchant: accra[0]!.merchantId }, { merchant: `mer_${"0".repeat(accra[0]!.merchantId.length - 4)}` }],
      [{ point_of_sale: accra[0]!.pointOfSaleId }, { point_of_sale: `pos_${"0".repeat(accra[0]!.pointOfSaleId.length - 4)}` }],
      [{ terminal_serial: accra[0]!.serial }, { terminal_serial: "NOSUCH-0001" }],
    ];
    for (const [elsewhere, unknown] of cases) {
      const good = cardPayment(own);
      const theirs = await answer("/api/v1/payments", { payments: [good, cardPayment(own, elsewhere)] });
      const nobodys = await answer("/api/v1/payments", { payments: [cardPayment(own, { reference: good.reference }), cardPayment(own, unknown)] });
      expect(theirs.status, JSON.stringify(elsewhere)).toBe(400);
      expect(theirs).toEqual(nobodys);
      expect(theirs.body.errors!.every((e) => e.path.startsWith("payments[1]."))).toBe(true);
    }
    const theirBeat = await answer(`/api/v1/terminals/${accra[0]!.serial}/heartbeats`, beat(new Date().toISOString()));
    const nobodysBeat = await answer("/api/v1/terminals/NOSUCH-0001/heartbeats", beat(new Date().toISOString()));
    expect(theirBeat).toEqual({ status: 404, body: { code: "terminal_not_found", message: "No terminal with that serial." } });
    expect(nobodysBeat).toEqual(theirBeat);
  });

  it("a stale heartbeat (older than the terminal's last) is answered 200 applied: false, and changes nothing", async () => {
    const serial = kumasi[2]!.serial;
    const fresh = new Date(Date.now() - 1000).toISOString();
    expect((await api(portal(), key, `/api/v1/terminals/${serial}/heartbeats`, beat(fresh))).status).toBe(202);
    const db = await portal().db();
    const lastSeen = () => db.prepare("SELECT last_seen_at AS n FROM terminals WHERE serial = ?").bind(serial).first<number>("n");
    await eventually(async () => (await lastSeen()) === Date.parse(fresh));
    const stale = await api(portal(), key, `/api/v1/terminals/${serial}/heartbeats`, {
      ...beat(new Date(Date.now() - 3_600_000).toISOString()),
      battery_percent: 3,
    });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual({
      accepted: 0,
      applied: false,
      reason: "stale",
      message: `sent_at is older than this terminal's last heartbeat (${fresh}): it was not applied.`,
      last_seen_at: fresh,
    });
    await paymentAppliedAfter(portal(), key, KUMASI, kumasi[0]!);
    expect(await lastSeen()).toBe(Date.parse(fresh));
    expect(await db.prepare("SELECT battery_percent AS n FROM terminals WHERE serial = ?").bind(serial).first<number>("n")).toBe(50);
  });
});
