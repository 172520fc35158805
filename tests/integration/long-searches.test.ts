// Searches of any length through the built Worker (decision 033): D1 refuses a
// LIKE pattern over 50 bytes, so a pasted name of 49 ASCII characters, or 25 of Ɔ Ɛ Ŋ, answered 500. Every
// list and its export answers 200 with exactly the rows a search matches, whatever its length and letters,
// and an export answers (never hangs) when its list is empty.
import { beforeAll, describe, expect, it } from "vitest";
import { loaderDataOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const AMA = "ama.mensah@example.com";
const LENGTHS = [49, 60, 200, 2_000] as const;

/** A deterministic text of `count` symbols from `alphabet` (a simple LCG: no stretch of it repeats another). */
function textOf(alphabet: readonly string[], count: number, seed: number): string {
  let state = seed;
  let text = "";
  for (let i = 0; i < count; i += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

// Letters only (no digits: a number-heavy search is a code or phone), with LIKE's own wildcards among them.
const ASCII = [..."abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ%_"];
// Akan, Ga and Ewe letters, two bytes each in UTF-8.
const GHANAIAN = [..."ƆƐŊɔɛŋƉɖƑƒƲʋ"];
// Emoji (four bytes each) among Ghanaian letters: the count is in symbols, so no emoji is cut in half.
const MIXED = ["😀", "💳", "🎉", "Ɔ", "ɛ", "ŋ", "Ɖ"];

const TAILS = {
  ascii: textOf(ASCII, 2_000, 7),
  ghanaian: textOf(GHANAIAN, 2_000, 11),
  emoji: textOf(MIXED, 2_000, 13),
} as const;
type Script = keyof typeof TAILS;

/** The first `count` symbols of a tail of the long name: a search that matches the target alone. */
const slice = (script: Script, count: number) => [...TAILS[script]].slice(0, count).join("");
/** The same with its last symbol changed to one none of the tails has: a search that matches nothing. */
const miss = (script: Script, count: number) => `${[...TAILS[script]].slice(0, count - 1).join("")}#`;

const CASES = (Object.keys(TAILS) as Script[]).flatMap((script) => LENGTHS.map((length) => [script, length] as const));

let target: { id: string; code: string; name: string };

beforeAll(async () => {
  const db = portal().businessDb(KUMASI);
  // The merchant with the most payments: it has payments in the last 30 days, settlements and funds.
  const busiest = await db
    .prepare(
      `SELECT m.id, m.code, m.name FROM merchants m JOIN settlements s ON s.merchant_id = m.id AND s.business_id = m.business_id
        WHERE m.business_id = ? AND m.status = 'active' GROUP BY m.id ORDER BY COUNT(*) DESC, m.id LIMIT 1`,
    )
    .bind(KUMASI)
    .first<{ id: string; code: string; name: string }>();
  expect(busiest).toBeTruthy();
  // A long name pasted from a registration document: its own name, then each of the tails.
  const name = `${busiest!.name} ${TAILS.ascii} ${TAILS.ghanaian} ${TAILS.emoji}`;
  await db.prepare("UPDATE merchants SET name = ? WHERE id = ? AND business_id = ?").bind(name, busiest!.id, KUMASI).run();
  target = { ...busiest!, name };
});

/** Fails (rather than hanging the suite) when the Worker does not answer, or does not finish its body, in time. */
async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in 20 s`)), 20_000);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function get(path: string): Promise<{ status: number; body: string }> {
  return within(
    path.slice(0, 80),
    (async () => {
      const response = await portal().fetch(path, { headers: await signedInCookie(portal(), AMA, KUMASI) });
      return { status: response.status, body: await response.text() };
    })(),
  );
}

async function listData(path: string, routeId: string): Promise<Record<string, unknown>> {
  const { status, body } = await get(path);
  expect(status, path.slice(0, 80)).toBe(200);
  const data = loaderDataOf(body)[routeId] as Record<string, unknown> | undefined;
  expect(data, routeId).toBeTruthy();
  return data!;
}

type Row = { id: string | number; merchantId?: string };
const ids = (rows: unknown) => (rows as Row[]).map((row) => row.id);

/** Each list: its path, its route, and the ids of the merchants (or rows of them) it shows. */
const LISTS = [
  { path: "/merchants", route: "routes/merchants", rows: (d: Record<string, unknown>) => ids(d.merchants) },
  { path: "/money/merchant-funds", route: "routes/money.merchant-funds", rows: (d: Record<string, unknown>) => ids(d.rows) },
  { path: "/money/merchant-accounts", route: "routes/money.merchant-accounts", rows: (d: Record<string, unknown>) => ids(d.accounts) },
] as const;

describe("a long search on the merchant lists", () => {
  it.each(CASES)("finds exactly the merchant whose name holds a %s text of %i symbols", async (script, length) => {
    const q = encodeURIComponent(slice(script, length));
    for (const list of LISTS) {
      expect(list.rows(await listData(`${list.path}?q=${q}`, list.route)), list.path).toEqual([target.id]);
    }
    const missed = encodeURIComponent(miss(script, length));
    for (const list of LISTS) expect(list.rows(await listData(`${list.path}?q=${missed}`, list.route)), list.path).toEqual([]);
  });

  it("keeps what LIKE did: ASCII letters in either case, LIKE's wildcards as plain characters", async () => {
    const typed = slice("ascii", 60);
    for (const variant of [typed.toLowerCase(), typed.toUpperCase()]) {
      expect(ids((await listData(`/merchants?q=${encodeURIComponent(variant)}`, "routes/merchants")).merchants)).toEqual([target.id]);
    }
    for (const wildcard of ["%", "_", "%%%_"]) {
      const found = ids((await listData(`/merchants?q=${encodeURIComponent(`Q${wildcard}Z`)}`, "routes/merchants")).merchants);
      expect(found, wildcard).toEqual([]);
    }
  });
});

describe("a long search on the lists of a merchant's rows", () => {
  it.each(CASES)("transactions and settlement history show the merchant's own rows for a %s text of %i symbols", async (script, length) => {
    const q = encodeURIComponent(slice(script, length));
    const byMerchant = await listData(`/transactions?range=30d&merchant=${target.id}`, "routes/transactions");
    expect((byMerchant.rows as Row[]).length).toBeGreaterThan(0);
    expect(ids((await listData(`/transactions?range=30d&q=${q}`, "routes/transactions")).rows)).toEqual(ids(byMerchant.rows));

    const db = portal().businessDb(KUMASI);
    const { results } = await db
      .prepare("SELECT id FROM settlements WHERE business_id = ? AND merchant_id = ? ORDER BY period_start DESC, id DESC LIMIT 25")
      .bind(KUMASI, target.id)
      .all<{ id: string }>();
    expect(results.length).toBeGreaterThan(0);
    const history = await listData(`/money/settlement-history?q=${q}`, "routes/money.settlement-history");
    expect(ids(history.rows)).toEqual(results.map((row) => row.id));

    const missed = encodeURIComponent(miss(script, length));
    expect((await listData(`/transactions?range=30d&q=${missed}`, "routes/transactions")).rows).toEqual([]);
    expect((await listData(`/money/settlement-history?q=${missed}`, "routes/money.settlement-history")).rows).toEqual([]);
  });

  it.each(LENGTHS)("the terminal list answers a %i-character serial search (longer than any serial) with no terminals", async (length) => {
    for (const script of ["ascii", "ghanaian"] as const) {
      const data = await listData(`/pos-terminals?q=${encodeURIComponent(slice(script, length))}`, "routes/pos-terminals");
      expect(data.terminals, script).toEqual([]);
    }
  });
});

/** A CSV's lines after its header row. */
const csvRows = (body: string) => body.split("\r\n").slice(1, -1);

describe("exports: exactly the filtered rows, or a visible failure, and always an answer", () => {
  it.each(CASES)("the merchants CSV of a %s search of %i symbols holds the one merchant", async (script, length) => {
    const { status, body } = await get(`/merchants/export?q=${encodeURIComponent(slice(script, length))}`);
    expect(status).toBe(200);
    const rows = csvRows(body);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.startsWith(`${target.code},`)).toBe(true);
  });

  it.each(CASES)("the transactions CSV of a %s search of %i symbols is that of the merchant filter", async (script, length) => {
    const byMerchant = await get(`/transactions/export?range=30d&merchant=${target.id}`);
    const searched = await get(`/transactions/export?range=30d&q=${encodeURIComponent(slice(script, length))}`);
    expect(searched.status).toBe(200);
    expect(csvRows(byMerchant.body).length).toBeGreaterThan(0);
    expect(csvRows(searched.body)).toEqual(csvRows(byMerchant.body));
  });

  it.each(LENGTHS)("the terminals CSV of a %i-character search answers with its header row alone", async (length) => {
    const { status, body } = await get(`/pos-terminals/export?q=${"Z".repeat(length)}`);
    expect(status).toBe(200);
    expect(body.startsWith("Serial,")).toBe(true);
    expect(csvRows(body)).toEqual([]);
  });

  it.each([["/transactions/export?q=zzzz"], ["/pos-terminals/export?q=zzzz"], ["/merchants/export?q=zzzz"], ["/settings/audit/export?person=x"]])(
    "an empty export %s answers with its header row and ends",
    async (path) => {
      const { status, body } = await get(path);
      expect(status).toBe(200);
      // The header row, and nothing after it (response.text() drops the byte-order mark).
      expect(body.split("\r\n")[0]).toMatch(/^[A-Z][\w ()]+,/);
      expect(csvRows(body)).toEqual([]);
    },
  );

  it.each([
    ["/transactions/export.data?q=zzzz"],
    ["/pos-terminals/export.data?q=zzzz"],
    ["/pos-terminals/export.data?q=ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"],
    ["/settings/audit/export.data?person=x"],
  ])("the single-fetch URL %s answers and ends, with no server error", async (path) => {
    const { status } = await get(path);
    expect(status).toBeLessThan(500);
  });
});
