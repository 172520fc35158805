// The node-bindings Worker (tests/support/bindings.ts) is how tests and the seed
// reach D1, KV and the Queue. What D1 answers must reach the test unchanged, and
// what the test binds must reach D1 unchanged, or tests would pass on values and
// errors production never sees.
import { describe, expect, it } from "vitest";
import { useSharedPortal } from "../support/shared-portal";

// Leaves nothing behind (the failing batch is undone, the key it writes it deletes): the worker's shared portal.
const portal = useSharedPortal();

describe("D1 through the node-bindings Worker", () => {
  it("round-trips names in every script, integers, reals, booleans, null and blobs as D1 gives them", async () => {
    const db = await portal().db();
    const name = "Ɔsɛe Ŋkran 🇬🇭 محمد";
    const row = await db
      .prepare("SELECT ? AS name, ? AS big, ? AS tenth, ? AS yes, ? AS absent, ? AS bytes, ? AS buffer, x'00ff' AS literal")
      .bind(name, Number.MAX_SAFE_INTEGER, 0.1, true, null, new Uint8Array([0, 1, 255]), new Uint8Array([7, 8]).buffer)
      .first();
    expect(row).toEqual({ name, big: Number.MAX_SAFE_INTEGER, tenth: 0.1, yes: 1, absent: null, bytes: [0, 1, 255], buffer: [7, 8], literal: [0, 255] });
    expect(await db.prepare("SELECT ? AS n").bind(42).first("n")).toBe(42);
    expect(await db.prepare("SELECT 1 AS a, 'x' AS b").raw({ columnNames: true })).toEqual([
      ["a", "b"],
      [1, "x"],
    ]);
  });

  it("passes D1's own errors: what D1 refuses to bind, constraint failures, unknown columns", async () => {
    const db = await portal().db();
    const select = db.prepare("SELECT ? AS v");
    await expect(select.bind(undefined).first()).rejects.toThrow("D1_TYPE_ERROR: Type 'undefined' not supported");
    await expect(select.bind(new Date(0)).first()).rejects.toThrow("D1_TYPE_ERROR: Type 'object' not supported");
    await expect(select.bind(10n).first()).rejects.toThrow("D1_TYPE_ERROR: Type 'bigint' not supported");
    await expect(db.prepare("SELECT 1 AS a").first("b")).rejects.toThrow("D1_COLUMN_NOTFOUND");
    await expect(db.prepare("INSERT INTO businesses (id) VALUES (NULL)").run()).rejects.toThrow(/NOT NULL constraint failed/);
  });

  it("runs a batch as one transaction: a failing statement undoes the ones before it", async () => {
    const db = await portal().db();
    const name = () => db.prepare("SELECT name FROM businesses WHERE id = (SELECT MIN(id) FROM businesses)").first<string>("name");
    const before = await name();
    await expect(
      db.batch([
        db.prepare("UPDATE businesses SET name = 'Renamed' WHERE id = (SELECT MIN(id) FROM businesses)"),
        db.prepare("INSERT INTO businesses (id) VALUES (NULL)"),
      ]),
    ).rejects.toThrow(/constraint failed/);
    expect(await name()).toBe(before);
    const [update] = await db.batch([db.prepare("UPDATE businesses SET name = name WHERE id = (SELECT MIN(id) FROM businesses)")]);
    expect(update!.meta.changes).toBe(1);
  });

  it("is the portal's own database and KV: a row or key written here is what the Worker reads", async () => {
    const kv = await portal().kv();
    await kv.put("build:latest", "from-node-bindings");
    expect(await (await portal().fetch(`/builds/latest.json?t=${Date.now()}`)).json()).toEqual({ buildId: "from-node-bindings" });
    expect(await kv.get("build:latest")).toBe("from-node-bindings");
    await kv.delete("build:latest");
    expect(await kv.get("build:latest")).toBeNull();
  });
});
