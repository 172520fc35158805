// Settings → Audit (decision 025) through the built Worker: every entry of the business from both of its
// sources (its database, and the core one's sign-in events), newest first, in keyset pages with no entry twice and
// none missed, even where the two sources share an instant; filters by person, kind, action and Africa/Accra days;
// administrators and Finance only (the tab and the CSV); another business's entries never; the CSV of the whole
// filtered set, names in Akan letters and emoji intact.
import { beforeAll, describe, expect, it } from "vitest";
import { businessPlace } from "#server/tenancy/directory.db";
import { loaderDataOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const ABENA = "abena.darko@example.com"; // Finance there
const ESI = "esi.owusu@example.com"; // Operations there
const YAW = "yaw.asante@example.com"; // Viewer, Accra Mobile Pay
const ESI_NAME = "Ɔdɔmankoma Ɛsi 🌺 Owusu";
const PEOPLE = ["usr_ama_mensah", "usr_kofi_boateng", "usr_esi_owusu"];

interface Seeded {
  source: "business" | "core";
  actor: string;
  action: string;
  entity: string;
  createdAt: string;
}
const seeded: Seeded[] = [];

/** 110 entries over 1–3 Oct 2026 (more than a CSV page), half in each source; every third instant is written in both sources at once. */
function plan(): Seeded[] {
  const rows: Seeded[] = [];
  for (let i = 0; i < 55; i += 1) {
    const createdAt = new Date(Date.parse("2026-10-01T08:00:00.000Z") + i * 3_600_000).toISOString();
    const actor = PEOPLE[i % 3]!;
    rows.push({ source: "business", actor, action: i % 2 ? "update" : "create", entity: i % 4 ? "merchant" : "terminal", createdAt });
    const coreAt = i % 3 === 0 ? createdAt : new Date(Date.parse(createdAt) + 60_000).toISOString();
    rows.push({ source: "core", actor, action: i % 2 ? "logout" : "business_chosen", entity: "session", createdAt: coreAt });
  }
  // The last instant of 2 Oct and the first of 3 Oct: the day filter's edges.
  rows.push({ source: "business", actor: "usr_esi_owusu", action: "edge", entity: "merchant", createdAt: "2026-10-02T23:59:59.999Z" });
  rows.push({ source: "business", actor: "usr_esi_owusu", action: "edge", entity: "merchant", createdAt: "2026-10-03T00:00:00.000Z" });
  return rows;
}

async function get(path: string, email = KOFI, businessId = KUMASI) {
  return portal().fetch(path, { headers: await signedInCookie(portal(), email, businessId) });
}

interface Loaded {
  rows: { key: string; createdAt: string; person: string; action: string; entity: string; before: unknown; after: unknown; ip: string; browser: string }[];
  page: number;
  trail: string[];
  hasNext: boolean;
}

async function tab(search: string, email = KOFI): Promise<Loaded> {
  const response = await get(`/settings?tab=audit&${search}`, email);
  expect(response.status).toBe(200);
  return (loaderDataOf(await response.text())["routes/settings"] as { audit: Loaded }).audit;
}

/** Every page of a filtered set, following the trail the pager would. */
async function allPages(search: string): Promise<Loaded["rows"]> {
  const rows: Loaded["rows"] = [];
  for (let page = 1, trail: string[] = []; ; page += 1) {
    const loaded = await tab(`${search}&page=${page}${trail.length ? `&trail=${trail.join(".")}` : ""}`);
    expect(loaded.page).toBe(page);
    rows.push(...loaded.rows);
    if (!loaded.hasNext) return rows;
    trail = loaded.trail;
  }
}

const OCTOBER = "from=2026-10-01&to=2026-10-03";

beforeAll(async () => {
  const place = await businessPlace(portal().core(), KUMASI);
  const business = portal().database(place!.shard);
  const core = portal().core();
  // Names are read through the business's memberships, in its database.
  await business.prepare("UPDATE users SET name = ? WHERE id = 'usr_esi_owusu'").bind(ESI_NAME).run();
  const insert = (db: D1Database, businessId: string, row: Seeded) =>
    db
      .prepare(
        "INSERT INTO audit_log (business_id, actor_id, action, entity, entity_id, before_json, after_json, ip, user_agent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(
        businessId,
        row.actor,
        row.action,
        row.entity,
        "mer_x",
        JSON.stringify({ name: "Old Stall" }),
        JSON.stringify({ name: "Ɛsi's 🍲 Chop Bar" }),
        "203.0.113.9",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
        row.createdAt,
      );
  for (const row of plan()) {
    await insert(row.source === "business" ? business : core, KUMASI, row).run();
    seeded.push(row);
  }
  // Another business's entries, the same people, actions and days: never on Kumasi's tab.
  const accra = portal().database((await businessPlace(core, ACCRA))!.shard);
  await insert(accra, ACCRA, {
    source: "business",
    actor: "usr_ama_mensah",
    action: "update",
    entity: "merchant",
    createdAt: "2026-10-02T10:00:00.000Z",
  }).run();
  await insert(core, ACCRA, { source: "core", actor: "usr_ama_mensah", action: "logout", entity: "session", createdAt: "2026-10-02T10:00:00.000Z" }).run();
});

describe("Settings → Audit", () => {
  it("pages through both sources newest first, every entry once, none of another business's", async () => {
    const rows = await allPages(OCTOBER);
    expect(rows).toHaveLength(seeded.length);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
    const times = rows.map((row) => row.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // At a shared instant the business's entry comes first, then the core one's, on whichever page.
    const shared = rows.filter((row) => row.createdAt === "2026-10-01T08:00:00.000Z");
    expect(shared.map((row) => row.key.split("-")[0])).toEqual(["business", "core"]);
    expect(rows.filter((row) => row.key.startsWith("core-"))).toHaveLength(55);
    const first = rows[0]!;
    expect(first).toMatchObject({ ip: "203.0.113.9", browser: "Chrome 130", before: { name: "Old Stall" }, after: { name: "Ɛsi's 🍲 Chop Bar" } });
  });

  it("filters by person, kind of record and action, in both sources", async () => {
    const esi = await allPages(`${OCTOBER}&person=usr_esi_owusu`);
    expect(esi).toHaveLength(seeded.filter((row) => row.actor === "usr_esi_owusu").length);
    expect(new Set(esi.map((row) => row.person))).toEqual(new Set([ESI_NAME]));
    const sessions = await allPages(`${OCTOBER}&kind=session`);
    expect(sessions).toHaveLength(55);
    const logouts = await allPages(`${OCTOBER}&action=logout&person=usr_kofi_boateng`);
    expect(logouts).toHaveLength(seeded.filter((row) => row.action === "logout" && row.actor === "usr_kofi_boateng").length);
    expect(logouts.every((row) => row.action === "logout" && row.person === "Kofi Boateng")).toBe(true);
  });

  it("filters by Africa/Accra days, the last day whole", async () => {
    const second = await allPages("from=2026-10-02&to=2026-10-02");
    expect(second).toHaveLength(seeded.filter((row) => row.createdAt.startsWith("2026-10-02")).length);
    expect(second.some((row) => row.createdAt === "2026-10-02T23:59:59.999Z")).toBe(true);
    expect(second.some((row) => row.createdAt === "2026-10-03T00:00:00.000Z")).toBe(false);
  });

  it("is for administrators and Finance: Operations and a Viewer get 403 on the tab and the CSV", async () => {
    expect((await tab(OCTOBER, ABENA)).rows.length).toBeGreaterThan(0);
    expect((await get("/settings?tab=audit", ESI)).status).toBe(403);
    expect((await get("/settings/audit/export", ESI)).status).toBe(403);
    expect((await get("/settings?tab=audit", YAW, ACCRA)).status).toBe(403);
    expect((await get("/settings/audit/export", YAW, ACCRA)).status).toBe(403);
    // The tab is not offered to those who cannot open it.
    const html = await (await get("/settings", ESI)).text();
    expect(html).not.toContain("tab=audit");
  });

  it("the CSV carries the whole filtered set, names intact", async () => {
    const response = await get(`/settings/audit/export?${OCTOBER}&person=usr_esi_owusu`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    const text = await response.text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]?.replace(/^\uFEFF/, "")).toBe("When (UTC),Person,Action,Kind of record,Record,Record name,Before,After,Address,Browser");
    expect(lines.slice(1)).toHaveLength(seeded.filter((row) => row.actor === "usr_esi_owusu").length);
    expect(lines.slice(1).every((line) => line.includes(ESI_NAME))).toBe(true);
    expect(text).toContain('"{""name"":""Ɛsi\'s 🍲 Chop Bar""}"');

    const all = await (await get(`/settings/audit/export?${OCTOBER}`, ABENA)).text();
    expect(all.trim().split("\r\n")).toHaveLength(seeded.length + 1);
  });
});
