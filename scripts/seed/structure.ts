// The standing data of one business: merchants, their points of sale, POS
// terminals (with their assignment history) and settlement accounts, plus the
// weights the transaction stream draws from.
import { ACCRA_MOBILE_PAY, KUMASI_FRESH_FOODS, USERS, type SeedBusiness } from "./data";
import {
  BANKS,
  FIRST_NAMES,
  MOMO_SHARE,
  NAME_PHRASES,
  NETWORK_PREFIXES,
  POS_DEVICES,
  SECTORS,
  SERIAL_LETTERS,
  STREET_KINDS,
  SURNAMES,
  TOWNS,
  areasOf,
  townsIn,
  type MomoNetwork,
  type NameGroup,
  type SectorProfile,
  type Town,
} from "./ghana";
import { Rng } from "./prng";
import { DAY_MS, HOUR_MS, businessProfile, type BusinessProfile, type SizeProfile } from "./profile";
import type { MerchantRow, PointOfSaleRow, SettlementAccountRow, TerminalAssignmentRow, TerminalRow, TerminalStatus } from "./tables";

export interface SeedContext {
  anchor: number;
  /** When the seed is made: the data goes on into the anchor's day up to here (anchor <= now < anchor + 1 day). */
  now: number;
  days: number;
  /** The first instant of the transaction window (anchor - days). */
  windowStart: number;
  /** Terminal serials are unique over the whole database. */
  serials: Set<string>;
  nextAssignmentId: number;
}

export interface MerchantModel {
  row: MerchantRow;
  index: number;
  sector: SectorProfile;
  town: Town;
  group: NameGroup;
  weight: number;
  pointsOfSale: PointOfSaleModel[];
  accounts: SettlementAccountRow[];
  primaryAccount: SettlementAccountRow;
}

export interface PointOfSaleModel {
  row: PointOfSaleRow;
  merchant: MerchantModel;
  weight: number;
  terminals: TerminalModel[];
}

export interface TerminalModel {
  row: TerminalRow;
  pointOfSale: PointOfSaleModel | null;
  /** Takes payments in the window (active, or blocked/faulty since lastSeen). */
  transacting: boolean;
  /** No payment after this instant. */
  lastSeen: number;
  weight: number;
}

export interface BusinessModel {
  business: SeedBusiness;
  profile: BusinessProfile;
  merchants: MerchantModel[];
  terminals: TerminalModel[];
  assignments: TerminalAssignmentRow[];
  /** The employees who assign terminals (Operations and administrators). */
  operators: readonly string[];
  tins: Set<string>;
  tradingNames: Set<string>;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** A number on a Ghanaian mobile network, stored as 233XXXXXXXXX. */
export function mobileNumber(rng: Rng, network: MomoNetwork = rng.weighted(MOMO_SHARE)): string {
  return `233${rng.pick(NETWORK_PREFIXES[network])}${rng.digits(7)}`;
}

export function networkOf(msisdn: string): MomoNetwork {
  const prefix = msisdn.slice(3, 5);
  for (const [network, prefixes] of Object.entries(NETWORK_PREFIXES) as [MomoNetwork, readonly string[]][]) {
    if (prefixes.includes(prefix)) return network;
  }
  throw new Error(`not a Ghanaian mobile number: ${msisdn}`);
}

export interface Person {
  first: string;
  last: string;
  gender: "female" | "male";
}

/** Names of the seeded people (and the invited one): generated contacts never share them, so a search for one finds that person. */
const RESERVED_NAMES = new Set([...USERS.map((u) => u.name), "Adwoa Sarpong"]);

export function person(rng: Rng, group: NameGroup): Person {
  for (;;) {
    const gender = rng.chance(0.5) ? "female" : "male";
    const drawn: Person = { first: rng.pick(FIRST_NAMES[group][gender]), last: rng.pick(SURNAMES[group]), gender };
    if (!RESERVED_NAMES.has(`${drawn.first} ${drawn.last}`)) return drawn;
  }
}

function lastWhere<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return items[i];
  return undefined;
}

/**
 * A few names as their owners write them, in Akan, Ga and Ewe letters (Ɔ, Ɛ, Ŋ)
 * and one with an emoji, so the demo shows them and every list, cursor, form
 * and CSV carries them. They replace the drawn name of merchants (by index in
 * their business) and points of sale (merchant index, then point-of-sale index)
 * whose drawn sector, town and people fit; the draws themselves are unchanged,
 * so every other row is as before. The first three businesses' merchants 1 and 2
 * are in every size.
 */
const SPELLED_TRADING_NAMES: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  // A pharmacy in Mankessim; a Ga supermarket in Madina ("thank you very much"); an Ewe transport company ("peace").
  [ACCRA_MOBILE_PAY]: { 1: "Nyamekyɛ Chemists", 2: "Oyiwaladɔŋŋ Supermarket", 19: "Ŋutifafa Transport Services" },
  // A chop bar ("queen mother") and Yaw Gyamfi's fruit stall.
  [KUMASI_FRESH_FOODS]: { 7: "Ɔhemaa Chop Bar", 8: "Yaw's 🍍 Fruits & Vegetables" },
};
const SPELLED_POINT_OF_SALE_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // Mankessim as Fante writes it; James Town as Ga does.
  [ACCRA_MOBILE_PAY]: { "1:1": "Mankɛsim Station Branch", "4:0": "Ŋleshi Branch" },
  // Dormaa as Twi writes it.
  [KUMASI_FRESH_FOODS]: { "7:0": "Dɔmaa Market Branch" },
};

/** An email-safe word: the Akan, Ga and Ewe letters as their Latin neighbours, the rest dropped. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/ɔ/g, "o")
    .replace(/ɛ/g, "e")
    .replace(/ŋ/g, "ng")
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "");
}

function address(rng: Rng, town: Town, area: string): string {
  const kind = rng.pick(STREET_KINDS);
  return `${kind} ${rng.int(1, 120)}, ${area}, ${town.town} (${town.gps}-${pad(rng.int(1, 999), 3)}-${rng.digits(4)})`;
}

function pickTown(rng: Rng, profile: BusinessProfile, homeTown: string): Town {
  if (rng.chance(profile.homeShare)) {
    const home = townsIn(profile.homeRegion);
    const main = home.find((t) => t.town === homeTown);
    return main && rng.chance(0.55) ? main : rng.pick(home);
  }
  const region = rng.pick(profile.otherRegions);
  const towns = townsIn(region);
  return towns.length > 0 ? rng.pick(towns) : rng.pick(TOWNS);
}

function tradingName(rng: Rng, group: NameGroup, sector: SectorProfile, town: Town, contact: Person): string {
  const noun = rng.pick(sector.nouns);
  const style = rng.next();
  if (style < 0.5) return `${rng.pick(NAME_PHRASES[group])} ${noun}`;
  if (style < 0.75) {
    const owner = contact.gender === "female" ? rng.pick(["Auntie ", "Maame ", "Mama ", ""]) : rng.pick(["Uncle ", "Papa ", "Nana ", ""]);
    return `${owner}${contact.first}'s ${noun}`;
  }
  return `${rng.pick(areasOf(town))} ${noun}`;
}

/** One merchant, from its own stream: merchant i of a business is the same whatever the size. */
export function makeMerchant(
  ctx: SeedContext,
  model: BusinessModel,
  index: number,
): Omit<MerchantModel, "pointsOfSale" | "accounts" | "primaryAccount"> & { rng: Rng } {
  const { business, profile } = model;
  const rng = Rng.stream(`merchant:${business.id}:${index}`);
  const sectorName = index === 0 ? (profile.sectors[0] as readonly [string, number])[0] : rng.weighted(profile.sectors);
  const sector = SECTORS[sectorName] as SectorProfile;
  const town = index === 0 ? (TOWNS.find((t) => t.town === business.town) as Town) : pickTown(rng, profile, business.town);
  const group = town.group;
  const contact = person(rng, group);

  let trading = tradingName(rng, group, sector, town, contact);
  for (let attempt = 0; model.tradingNames.has(trading); attempt++) {
    trading = attempt < 5 ? tradingName(rng, group, sector, town, contact) : `${trading} ${town.town}`;
  }
  // The drawn name stays taken too, so later merchants draw what they always drew.
  model.tradingNames.add(trading);
  trading = SPELLED_TRADING_NAMES[business.id]?.[index] ?? trading;
  model.tradingNames.add(trading);

  const company = rng.chance(0.55);
  const name = company ? `${trading} Limited` : `${trading} Enterprise`;
  let tin = "";
  do tin = `${company ? "C" : "P"}00${rng.digits(8)}`;
  while (model.tins.has(tin));
  model.tins.add(tin);

  const created = ctx.windowStart - rng.int(20, 900) * DAY_MS - rng.int(0, 86_399) * 1000;
  const active = index < 3 || !rng.chance(0.05);
  let updated = created;
  let version = 1;
  if (!active) {
    updated = ctx.windowStart - rng.int(1, 15) * DAY_MS;
    version = rng.int(2, 3);
  } else if (rng.chance(0.4)) {
    updated = Math.min(ctx.anchor - DAY_MS, created + rng.int(10, 400) * DAY_MS);
    version = rng.int(2, 4);
  }
  const row: MerchantRow = {
    id: `mer_${profile.short}_${pad(index + 1, 4)}`,
    business_id: business.id,
    code: `MRC-${pad(index + 1, 4)}`,
    name,
    trading_name: trading,
    tin,
    sector: sectorName,
    town: town.town,
    region: town.region,
    address: address(rng, town, rng.pick(areasOf(town))),
    contact_name: `${contact.first} ${contact.last}`,
    contact_phone: mobileNumber(rng),
    contact_email: `${slug(contact.first)}.${slug(contact.last)}@${slug(trading).slice(0, 24)}.example.com`,
    status: active ? "active" : "inactive",
    created_at: iso(created),
    updated_at: iso(updated),
    version,
  };
  // A few big merchants, many small ones.
  const weight = rng.logNormal(1, 0.9);
  return { row, index, sector, town, group, weight, rng };
}

function pointOfSaleName(rng: Rng, merchantTown: Town, town: Town, taken: Set<string>): string {
  const area = rng.pick(areasOf(town));
  const base = town === merchantTown ? area : `${town.town} ${area}`;
  let name = `${base} ${rng.pick(["Branch", "Branch", "Shop", "Outlet"])}`;
  for (let n = 2; taken.has(name); n++) name = `${base} Branch ${n}`;
  taken.add(name);
  return name;
}

/** A point of sale of a merchant (not yet attached to it). */
export function makePointOfSale(
  rng: Rng,
  ctx: SeedContext,
  merchant: MerchantModel,
  index: number,
  id: string,
  taken: Set<string>,
  forceActive: boolean,
): PointOfSaleModel {
  const town = index === 0 || rng.chance(0.7) ? merchant.town : rng.pick(townsIn(merchant.town.region));
  const merchantCreated = Date.parse(merchant.row.created_at);
  const created = merchantCreated + rng.int(0, Math.max(0, Math.floor((ctx.windowStart - 5 * DAY_MS - merchantCreated) / DAY_MS))) * DAY_MS;
  const active = merchant.row.status === "active" && (forceActive || index === 0 || !rng.chance(0.05));
  const updated = active ? created : Math.max(created, ctx.windowStart - rng.int(1, 10) * DAY_MS);
  // Drawn whatever name the point of sale ends up with, so the draws after it stay as they were.
  const drawnName = pointOfSaleName(rng, merchant.town, town, taken);
  const row: PointOfSaleRow = {
    id,
    business_id: merchant.row.business_id,
    merchant_id: merchant.row.id,
    name: SPELLED_POINT_OF_SALE_NAMES[merchant.row.business_id]?.[`${merchant.index}:${index}`] ?? drawnName,
    town: town.town,
    region: town.region,
    address: address(rng, town, rng.pick(areasOf(town))),
    contact_phone: mobileNumber(rng),
    status: active ? "active" : "inactive",
    created_at: iso(created),
    updated_at: iso(updated),
    version: active ? 1 : 2,
  };
  return { row, merchant, weight: rng.logNormal(1, 0.5), terminals: [] };
}

function bankAccountNumber(rng: Rng): string {
  switch (rng.int(0, 3)) {
    case 0:
      return `${rng.int(1, 9)}${rng.digits(rng.int(9, 11))}`;
    case 1:
      return `${rng.int(1, 9)}${rng.digits(3)}-${rng.digits(7)}`;
    case 2:
      return `${rng.int(1, 9)}${rng.digits(2)}-${rng.digits(8)}`;
    default:
      return `${rng.int(1, 9)}${rng.digits(2)}-${rng.digits(6)}`;
  }
}

export function makeSettlementAccount(
  rng: Rng,
  merchant: MerchantModel,
  id: string,
  kind: "bank" | "mobile_money",
  options: { primary: boolean; active: boolean; created: number; updated: number },
): SettlementAccountRow {
  let provider: string;
  let number: string;
  let accountName: string;
  if (kind === "bank") {
    provider = rng.weighted(BANKS);
    number = bankAccountNumber(rng);
    accountName = merchant.row.name;
  } else {
    const wallet = rng.chance(0.7) ? merchant.row.contact_phone : mobileNumber(rng);
    provider = networkOf(wallet);
    number = `0${wallet.slice(3)}`;
    accountName = merchant.row.contact_name;
  }
  return {
    id,
    business_id: merchant.row.business_id,
    merchant_id: merchant.row.id,
    kind,
    provider,
    account_number: number,
    account_name: accountName,
    is_primary: options.primary ? 1 : 0,
    status: options.active ? "active" : "inactive",
    created_at: iso(options.created),
    updated_at: iso(options.updated),
    version: options.updated === options.created ? 1 : 2,
  };
}

function serial(rng: Rng, ctx: SeedContext, device: (typeof POS_DEVICES)[number]): string {
  const digits = (n: number) => rng.digits(n);
  const letter = () => SERIAL_LETTERS[rng.int(0, SERIAL_LETTERS.length - 1)] as string;
  let value = device.serial(digits, letter);
  while (ctx.serials.has(value)) value = device.serial(digits, letter);
  ctx.serials.add(value);
  return value;
}

interface TerminalPlan {
  status: TerminalStatus;
  pointOfSale: PointOfSaleModel | null;
  /** The first terminal of its point of sale (always in service). */
  first: boolean;
}

/** Builds the whole standing data of one business. */
export function buildBusiness(ctx: SeedContext, business: SeedBusiness, size: SizeProfile, operators: readonly string[]): BusinessModel {
  const profile = businessProfile(business.id);
  const model: BusinessModel = { business, profile, merchants: [], terminals: [], assignments: [], operators, tins: new Set(), tradingNames: new Set() };
  const count = size.merchants[business.id] ?? 0;
  let posSeq = 0;
  let accountSeq = 0;
  const plans: TerminalPlan[] = [];

  for (let i = 0; i < count; i++) {
    const { rng, ...base } = makeMerchant(ctx, model, i);
    const merchant = base as MerchantModel;
    merchant.pointsOfSale = [];
    merchant.accounts = [];

    // Points of sale: the first merchant always has two or more (the approvals requests need them).
    const [minPos, maxPos] = size.pointsOfSale;
    const posCount = Math.max(i === 0 ? 2 : 1, rng.int(minPos, maxPos));
    const names = new Set<string>();
    for (let j = 0; j < posCount; j++) {
      const pos = makePointOfSale(rng, ctx, merchant, j, `pos_${profile.short}_${pad(++posSeq, 5)}`, names, i < 3);
      merchant.pointsOfSale.push(pos);
      if (pos.row.status !== "active") continue;
      const [minT, maxT] = size.terminalsPerPointOfSale;
      const terminals = rng.int(minT, maxT);
      for (let k = 0; k < terminals; k++) {
        // The first terminal of a point of sale is in service; the others mostly.
        const status: TerminalStatus =
          k === 0
            ? "active"
            : rng.weighted<TerminalStatus>([
                ["active", 88],
                ["assigned", 3],
                ["blocked", 3],
                ["faulty", 6],
              ]);
        plans.push({ status, pointOfSale: pos, first: k === 0 });
      }
    }

    // Settlement accounts: exactly one primary active; the first merchant also has a second active one.
    const merchantCreated = Date.parse(merchant.row.created_at);
    const primaryKind = i === 0 || rng.chance(profile.bankShare) ? "bank" : "mobile_money";
    const primary = makeSettlementAccount(rng, merchant, `sac_${profile.short}_${pad(++accountSeq, 5)}`, primaryKind, {
      primary: true,
      active: true,
      created: merchantCreated + HOUR_MS,
      updated: merchantCreated + HOUR_MS,
    });
    merchant.accounts.push(primary);
    merchant.primaryAccount = primary;
    if (i === 0 || rng.chance(0.25)) {
      const created = merchantCreated + rng.int(5, 15) * DAY_MS;
      merchant.accounts.push(
        makeSettlementAccount(rng, merchant, `sac_${profile.short}_${pad(++accountSeq, 5)}`, primaryKind === "bank" ? "mobile_money" : "bank", {
          primary: false,
          active: true,
          created,
          updated: created,
        }),
      );
    }
    if (rng.chance(0.1)) {
      const created = merchantCreated + 2 * HOUR_MS;
      merchant.accounts.push(
        makeSettlementAccount(rng, merchant, `sac_${profile.short}_${pad(++accountSeq, 5)}`, "bank", {
          primary: false,
          active: false,
          created,
          updated: Math.min(ctx.windowStart, created + rng.int(30, 200) * DAY_MS),
        }),
      );
    }
    // Drop a duplicate (same provider and number) should the draws collide.
    const seen = new Set<string>();
    merchant.accounts = merchant.accounts.filter((a) => {
      const key = `${a.kind}|${a.provider}|${a.account_number}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    model.merchants.push(merchant);
  }

  // Terminals in the field, then a few in stock and a few retired.
  const rng = Rng.stream(`terminals:${business.id}`);
  const allPos = model.merchants.flatMap((m) => m.pointsOfSale);
  const stock = Math.max(1, Math.round(plans.length * 0.07));
  const retired = Math.max(1, Math.round(plans.length * 0.025));
  // Every business has at least one faulty terminal in the field, when it has a second terminal somewhere.
  if (!plans.some((p) => p.status === "blocked" || p.status === "faulty")) {
    const second = lastWhere(plans, (p) => !p.first);
    if (second) second.status = "faulty";
  }
  for (let s = 0; s < stock; s++) plans.push({ status: "in_stock", pointOfSale: null, first: false });
  for (let s = 0; s < retired; s++) plans.push({ status: "retired", pointOfSale: null, first: false });

  let terminalSeq = 0;
  for (const plan of plans) {
    model.terminals.push(makeTerminal(rng, ctx, model, `trm_${profile.short}_${pad(++terminalSeq, 5)}`, plan, allPos));
  }
  // And at least one active terminal silent for over a day (one whose point of sale has another in service).
  const silent = (t: TerminalModel) => t.row.status === "active" && t.lastSeen < ctx.now - DAY_MS;
  if (!model.terminals.some(silent)) {
    const quiet =
      lastWhere(model.terminals, (t) => t.row.status === "active" && (t.pointOfSale?.terminals.filter((o) => o.transacting).length ?? 0) > 1) ??
      lastWhere(model.terminals, (t) => t.row.status === "active");
    if (quiet) {
      quiet.lastSeen = ctx.now - 26 * HOUR_MS - 17 * 60_000;
      quiet.row.last_seen_at = quiet.lastSeen;
    }
  }
  return model;
}

function makeTerminal(rng: Rng, ctx: SeedContext, model: BusinessModel, id: string, plan: TerminalPlan, allPos: PointOfSaleModel[]): TerminalModel {
  const device = rng.weighted(POS_DEVICES.map((d) => [d, d.weight] as const));
  const operator = () => rng.pick(model.operators);
  const assign = (pos: PointOfSaleModel, at: number, until: number | null) => {
    model.assignments.push({
      id: ctx.nextAssignmentId++,
      business_id: model.business.id,
      terminal_id: id,
      point_of_sale_id: pos.row.id,
      assigned_by: operator(),
      assigned_at: iso(at),
      unassigned_at: until === null ? null : iso(until),
    });
  };
  const secs = () => rng.int(0, 3_599) * 1000;
  const { status, pointOfSale } = plan;
  let created: number;
  let updated: number;
  let version = 1;
  let lastSeen: number | null = null;
  let transacting = false;

  if (pointOfSale) {
    const posCreated = Date.parse(pointOfSale.row.created_at);
    let assignedAt: number;
    if (status === "assigned") {
      assignedAt = ctx.anchor - rng.int(1, 6) * DAY_MS - rng.int(8, 16) * HOUR_MS - secs();
    } else {
      assignedAt = Math.max(posCreated + HOUR_MS, ctx.windowStart - rng.int(1, 300) * DAY_MS - rng.int(8, 16) * HOUR_MS) + secs();
    }
    let firstAssigned = assignedAt;
    // Some terminals stood at another point of sale before.
    if (rng.chance(0.25)) {
      const earlier = rng.pick(allPos);
      const from = assignedAt - rng.int(30, 400) * DAY_MS;
      if (earlier !== pointOfSale && Date.parse(earlier.row.created_at) < from) {
        assign(earlier, from, assignedAt - rng.int(1, 20) * DAY_MS);
        firstAssigned = from;
        version += 2;
      }
    }
    assign(pointOfSale, assignedAt, null);
    created = firstAssigned - rng.int(2, 40) * DAY_MS - secs();
    updated = assignedAt;
    version += 1;
    if (status === "assigned") {
      lastSeen = assignedAt + rng.int(5, 90) * 60_000;
    } else {
      // Went live an hour or so after installation.
      updated = assignedAt + HOUR_MS;
      version += 1;
      if (status === "active") {
        transacting = true;
        lastSeen = rng.chance(0.05)
          ? ctx.now - rng.int(25, 140) * HOUR_MS - secs() // silent for over a day
          : ctx.now - rng.int(20, 1_800) * 1000; // seen minutes before the seed was made (it takes payments up to then)
      } else {
        // Blocked or faulty since a day in the window; it took payments until then.
        transacting = true;
        const since = ctx.anchor - rng.int(2, Math.max(2, ctx.days - 1)) * DAY_MS - rng.int(0, 23) * HOUR_MS - secs();
        lastSeen = since;
        updated = Math.max(updated, since + rng.int(1, 60) * 60_000);
        version += 1;
      }
    }
  } else if (status === "retired") {
    const until = ctx.windowStart - rng.int(5, 200) * DAY_MS;
    const from = until - rng.int(100, 700) * DAY_MS;
    const pos = rng.pick(allPos);
    if (Date.parse(pos.row.created_at) < from) {
      assign(pos, from, until);
      version += 2;
    }
    created = from - rng.int(2, 40) * DAY_MS;
    lastSeen = until - rng.int(1, 30) * DAY_MS - secs();
    updated = until + rng.int(1, 10) * DAY_MS;
    version += 1;
  } else {
    // In stock: new, or returned from a point of sale before the window.
    const pos = rng.pick(allPos);
    const until = ctx.windowStart - rng.int(1, 100) * DAY_MS;
    const from = until - rng.int(20, 300) * DAY_MS;
    if (rng.chance(0.35) && Date.parse(pos.row.created_at) < from) {
      assign(pos, from, until);
      created = from - rng.int(2, 40) * DAY_MS;
      lastSeen = until - rng.int(1, 48) * HOUR_MS;
      updated = until;
      version += 2;
    } else {
      created = ctx.anchor - rng.int(3, 200) * DAY_MS - secs();
      updated = created;
    }
  }

  const row: TerminalRow = {
    id,
    business_id: model.business.id,
    serial: serial(rng, ctx, device),
    model: device.model,
    software_version: rng.weighted(device.versions),
    status,
    merchant_id: pointOfSale ? pointOfSale.merchant.row.id : null,
    point_of_sale_id: pointOfSale ? pointOfSale.row.id : null,
    last_seen_at: lastSeen,
    created_at: iso(created),
    updated_at: iso(updated),
    version,
  };
  const terminal: TerminalModel = {
    row,
    pointOfSale,
    transacting,
    lastSeen: lastSeen ?? Number.NEGATIVE_INFINITY,
    weight: transacting && pointOfSale ? pointOfSale.merchant.weight * pointOfSale.weight * rng.logNormal(1, 0.3) : 0,
  };
  pointOfSale?.terminals.push(terminal);
  return terminal;
}
