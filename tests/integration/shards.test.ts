// Businesses over several D1 databases (decision 021): the seed places the demo businesses on two
// shards; every screen and the Partner API work for a business on either; a business moves to the other shard while
// it is read and while Partner API payments wait in the queue, with nothing lost and its ledger the same; reads after
// a write see it through the D1 Sessions API's bookmark.
import { describe, expect, it } from "vitest";
import { businessFigures } from "#server/tenancy/shard-copy.db";
import { MOVING_MESSAGE } from "#server/tenancy/tenant";
import { moveBusiness } from "#server/tenancy/shard-move";
import { textOf } from "../support/html";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { api, eventually, makeKey, momoPayment, partiesOf } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "100000" } });

const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi
const AMA = "ama.mensah@example.com"; // Administrator in Accra
const PAGES = [
  "/",
  "/transactions",
  "/merchants",
  "/pos-terminals",
  "/money/merchant-accounts",
  "/money/settlement-history",
  "/reports",
  "/approvals",
  "/settings",
];

async function places(): Promise<Map<string, string>> {
  const { results } = await portal().core().prepare("SELECT business_id, shard FROM business_shards").all<{ business_id: string; shard: string }>();
  return new Map(results.map((row) => [row.business_id, row.shard]));
}

async function businessesHolding(db: D1Database, table: string): Promise<string[]> {
  return (await db.prepare(`SELECT DISTINCT business_id AS id FROM ${table} ORDER BY id`).all<{ id: string }>()).results.map((row) => row.id);
}

function form(cookie: { Cookie: string }, fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: new URLSearchParams(fields).toString(),
  };
}

describe("businesses over two databases", () => {
  it("the seed puts the two demo businesses on different shards, and each database holds only its own businesses' rows", async () => {
    const placed = await places();
    expect(placed.get(KUMASI)).toMatch(/^SHARD_/);
    expect(placed.get(ACCRA)).toMatch(/^SHARD_/);
    expect(placed.get(KUMASI)).not.toBe(placed.get(ACCRA));
    for (const table of ["transactions", "merchants", "points_of_sale", "ledger_postings", "daily_rollups"]) {
      expect(await businessesHolding(portal().core(), table), `core ${table}`).toEqual([]);
      expect(await businessesHolding(portal().database(placed.get(KUMASI)!), table)).toEqual([KUMASI]);
      expect(await businessesHolding(portal().database(placed.get(ACCRA)!), table)).toEqual([ACCRA]);
    }
  });

  it.each([
    ["Kumasi", KOFI, KUMASI],
    ["Accra", AMA, ACCRA],
  ])("every screen answers for %s, whichever database holds it", async (_name, email, businessId) => {
    const cookie = await signedInCookie(portal(), email, businessId);
    for (const path of PAGES) {
      const response = await portal().fetch(path, { headers: cookie });
      expect(response.status, path).toBe(200);
    }
  });

  it("the Partner API takes and shows payments of a business on either database", async () => {
    for (const businessId of [KUMASI, ACCRA]) {
      const key = await makeKey(portal(), businessId);
      const [parties] = await partiesOf(portal(), businessId);
      const payment = momoPayment(parties!);
      expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
      await eventually(
        async () => (await api(portal(), key, `/api/v1/payments/${String(payment.reference)}`)).status === 200,
        15_000,
        `${businessId}'s payment`,
      );
    }
  });
});

describe("reads after writes (the D1 Sessions API)", () => {
  it("a change leaves the business database's bookmark in a cookie, and the next page read with it shows the change", async () => {
    const cookie = await signedInCookie(portal(), KOFI, KUMASI);
    const shard = (await places()).get(KUMASI)!;
    const name = `Bookmark key Ɛ ${Date.now()}`;
    const created = await sendChecked(portal().core(), cookie, () => portal().fetch("/settings?tab=developers", form(cookie, { intent: "create-key", name })));
    expect(created.status).toBe(200);
    const bookmark = created.headers.getSetCookie().find((value) => value.startsWith("pp_d1="));
    expect(bookmark, "the pp_d1 cookie").toBeDefined();
    expect(bookmark).toMatch(new RegExp(`^pp_d1=${shard}\\.[^;]+; Path=/; HttpOnly; SameSite=Lax; Max-Age=600`));
    const next = await portal().fetch("/settings?tab=developers", { headers: { Cookie: `${cookie.Cookie}; ${bookmark!.split(";")[0]}` } });
    expect(next.status).toBe(200);
    expect(textOf(await next.text())).toContain(name);
    // A bookmark of another database, or one nothing can read, is ignored: the page still answers.
    for (const stray of ["pp_d1=SHARD_Z.00000000", "pp_d1=%%%", "pp_d1=DB."]) {
      expect((await portal().fetch("/settings?tab=developers", { headers: { Cookie: `${cookie.Cookie}; ${stray}` } })).status).toBe(200);
    }
  });
});

describe("moving a business to another database", () => {
  it("moves Kumasi while it is read and while API payments wait in the queue: nothing lost, the ledger the same, the old rows gone", async () => {
    const before = await places();
    const from = before.get(KUMASI)!;
    const to = [...new Set(before.values())].find((shard) => shard !== from)!;
    const source = portal().database(from);
    const target = portal().database(to);
    const key = await makeKey(portal(), KUMASI);
    const [parties] = await partiesOf(portal(), KUMASI);
    const cookie = await signedInCookie(portal(), KOFI, KUMASI);
    const figures = await businessFigures(source, KUMASI);
    expect(figures.rows.transactions).toBeGreaterThan(0);

    // Reads all along the move.
    let moving = true;
    const statuses: number[] = [];
    const reads = (async () => {
      while (moving) {
        for (const path of ["/transactions", "/", "/money/merchant-accounts"]) statuses.push((await portal().fetch(path, { headers: cookie })).status);
      }
    })();

    const queued: string[] = [];
    let refusal = "";
    let apiDuring = 0;
    const report = await moveBusiness({ core: portal().core(), database: (name) => portal().database(name) }, KUMASI, to, {
      pageSize: 50,
      // The business is read-only here: copied, not yet switched.
      afterCopy: async () => {
        // The copy is the business as it was: every table's rows, every account's lines and running sum.
        expect(await businessFigures(target, KUMASI)).toEqual(figures);
        expect(await businessFigures(source, KUMASI)).toEqual(figures);
        for (let i = 0; i < 5; i++) {
          const payment = momoPayment(parties!, { amount: 1_000 + i });
          const response = await api(portal(), key, "/api/v1/payments", payment);
          apiDuring = response.status;
          if (response.status === 202) queued.push(String(payment.reference));
        }
        const write = await sendChecked(portal().core(), cookie, () =>
          portal().fetch("/settings?tab=developers", form(cookie, { intent: "create-key", name: "During the move" })),
        );
        expect(write.status).toBe(400);
        refusal = textOf(await write.text());
      },
    });
    moving = false;
    await reads;

    expect(report).toMatchObject({ businessId: KUMASI, from, to });
    // Writes during the move: the form says so where the person looks; the API accepted and queued.
    expect(refusal).toContain(MOVING_MESSAGE);
    expect(apiDuring).toBe(202);
    expect(queued).toHaveLength(5);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    // The directory switched; the old database keeps no row of the business, and refuses any write of it.
    expect((await places()).get(KUMASI)).toBe(to);
    await portal().refreshPlaces();
    for (const table of ["transactions", "ledger_postings", "merchants", "audit_log", "memberships", "daily_rollups"]) {
      expect(await source.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE business_id = ?`).bind(KUMASI).first("n"), table).toBe(0);
    }
    await expect(
      source.prepare("INSERT INTO merchants (id, business_id, code, name) VALUES ('mer_late', ?, 'LATE', 'Late')").bind(KUMASI).run(),
    ).rejects.toThrow(/business_moving/);

    // Every payment queued during the move is written on the new database once the consumer retries it.
    await eventually(
      async () => {
        const n = await target
          .prepare(`SELECT COUNT(*) AS n FROM transactions WHERE business_id = ? AND reference IN (${queued.map(() => "?").join(", ")})`)
          .bind(KUMASI, ...queued)
          .first<number>("n");
        return n === queued.length;
      },
      40_000,
      "the queued payments on the new database",
    );
    const after = await businessFigures(target, KUMASI);
    expect(after.rows.transactions).toBe((figures.rows.transactions ?? 0) + queued.length);
    for (const [lines, running] of Object.values(after.accounts)) expect(lines).toBe(running);
    await expectAccountSumsMatchEntries(portal().shards());

    // Pages and the API read the business from its new database.
    for (const path of PAGES) expect((await portal().fetch(path, { headers: cookie })).status, path).toBe(200);
    expect((await api(portal(), key, `/api/v1/payments/${queued[0]}`)).status).toBe(200);
  });

  it("refuses a move to where the business already is, or of a business the directory does not know, and changes nothing", async () => {
    const placed = await places();
    const databases = { core: portal().core(), database: (name: string) => portal().database(name) };
    await expect(moveBusiness(databases, ACCRA, placed.get(ACCRA)!)).rejects.toThrow(/already on/);
    await expect(moveBusiness(databases, "bus_nobody", "SHARD_A")).rejects.toThrow(/No business/);
    expect(await places()).toEqual(placed);
  });
});
