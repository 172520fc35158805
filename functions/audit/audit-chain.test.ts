// The audit chain's hashing and walk (decision 025): a sealed chain holds; a changed field, a removed entry, a
// reordered pair and a sealed entry after an unsealed one are each caught at the first entry that no longer fits;
// an unsealed tail is counted, not called broken; the id is not covered (a move to another database renumbers).
import { describe, expect, it } from "vitest";
import { canonicalEntry, entryHash, GENESIS, verifyChain, type ChainEntry } from "./audit-chain";

function entry(id: number, overrides: Partial<ChainEntry> = {}): ChainEntry {
  return {
    id,
    businessId: "bus_kumasi_fresh_foods",
    actorId: "usr_ama_mensah",
    action: "update",
    entity: "merchant",
    entityId: `mer_${id}`,
    beforeJson: JSON.stringify({ name: "Ɔkyeame Ɛnterprise" }),
    afterJson: JSON.stringify({ name: "Kofi's 🍍 Stall — مطعم" }),
    ip: "203.0.113.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130",
    requestId: `req_${id}`,
    createdAt: `2026-11-23T10:00:0${id % 10}.000Z`,
    prevHash: null,
    hash: null,
    ...overrides,
  };
}

/** Entries sealed as the sealer seals them: in order, each after the previous hash. */
async function sealed(entries: ChainEntry[]): Promise<ChainEntry[]> {
  let previous = GENESIS;
  const out: ChainEntry[] = [];
  for (const e of entries) {
    const hash = await entryHash(e, previous);
    out.push({ ...e, prevHash: previous, hash });
    previous = hash;
  }
  return out;
}

describe("canonical serialisation", () => {
  it("covers every field a person reads and the previous hash, not the id", () => {
    const a = entry(1);
    expect(canonicalEntry(a, GENESIS)).toBe(canonicalEntry({ ...a, id: 9001 }, GENESIS));
    for (const field of [
      "businessId",
      "actorId",
      "action",
      "entity",
      "entityId",
      "beforeJson",
      "afterJson",
      "ip",
      "userAgent",
      "requestId",
      "createdAt",
    ] as const) {
      expect(canonicalEntry({ ...a, [field]: "other" }, GENESIS), field).not.toBe(canonicalEntry(a, GENESIS));
    }
    expect(canonicalEntry(a, "f".repeat(64))).not.toBe(canonicalEntry(a, GENESIS));
  });

  it("keeps fields apart: text moved from one field to the next is another entry", () => {
    const a = entry(1, { entity: "merchant", entityId: "x" });
    const b = entry(1, { entity: "merchantx", entityId: "" });
    expect(canonicalEntry(a, GENESIS)).not.toBe(canonicalEntry(b, GENESIS));
    expect(canonicalEntry(entry(1, { entityId: null }), GENESIS)).not.toBe(canonicalEntry(entry(1, { entityId: "" }), GENESIS));
  });

  it("hashes to 64 hex characters, the same every time", async () => {
    const hash = await entryHash(entry(1), GENESIS);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await entryHash(entry(1), GENESIS)).toBe(hash);
  });
});

describe("the chain walk", () => {
  it("a sealed chain holds, with its unsealed tail counted", async () => {
    const chain = [...(await sealed([entry(1), entry(2), entry(3)])), entry(4), entry(5)];
    expect(await verifyChain(chain)).toEqual({ ok: true, sealed: 3, unsealed: 2 });
    expect(await verifyChain([])).toEqual({ ok: true, sealed: 0, unsealed: 0 });
  });

  it("a changed field is caught at that entry", async () => {
    const chain = await sealed([entry(1), entry(2), entry(3), entry(4)]);
    chain[2] = { ...chain[2]!, afterJson: JSON.stringify({ name: "Someone else" }) };
    const report = await verifyChain(chain);
    expect(report.ok).toBe(false);
    if (report.ok) return;
    expect(report.broken.entry.id).toBe(3);
    expect(report.broken.kind).toBe("content");
    expect(report.broken.found).toBe(chain[2].hash);
    expect(report.sealed).toBe(2);
  });

  it("a re-hashed change is still caught at the next entry", async () => {
    const chain = await sealed([entry(1), entry(2), entry(3)]);
    const forged = { ...chain[1]!, ip: "198.51.100.1" };
    chain[1] = { ...forged, hash: await entryHash(forged, forged.prevHash!) };
    const report = await verifyChain(chain);
    expect(!report.ok && report.broken.entry.id).toBe(3);
    expect(!report.ok && report.broken.kind).toBe("link");
  });

  it("a removed entry is caught at the one after it", async () => {
    const chain = await sealed([entry(1), entry(2), entry(3), entry(4)]);
    const report = await verifyChain([chain[0]!, chain[2]!, chain[3]!]);
    expect(!report.ok && report.broken.entry.id).toBe(3);
    expect(!report.ok && report.broken.expected).toBe(chain[0]!.hash);
    expect(!report.ok && report.broken.found).toBe(chain[1]!.hash);
  });

  it("a removed first entry is caught", async () => {
    const chain = await sealed([entry(1), entry(2)]);
    const report = await verifyChain([chain[1]!]);
    expect(!report.ok && report.broken.entry.id).toBe(2);
    expect(!report.ok && report.broken.expected).toBe(GENESIS);
  });

  it("a reordered pair is caught", async () => {
    const chain = await sealed([entry(1), entry(2), entry(3), entry(4)]);
    const report = await verifyChain([chain[0]!, chain[2]!, chain[1]!, chain[3]!]);
    expect(!report.ok && report.broken.entry.id).toBe(3);
  });

  it("a sealed entry after an unsealed one is caught", async () => {
    const chain = await sealed([entry(1), entry(2), entry(3)]);
    const report = await verifyChain([chain[0]!, { ...chain[1]!, prevHash: null, hash: null }, chain[2]!]);
    expect(!report.ok && report.broken.entry.id).toBe(3);
    expect(!report.ok && report.broken.kind).toBe("order");
  });
});
