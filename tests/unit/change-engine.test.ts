// The business's change engine is one for every kind: what a kind of change request does is its spec (SPECS in
// functions/approvals/change-kinds.ts) and its steps (change-steps.ts), so a new kind is one spec and one entry. The
// engine's modules name no kind: a kind compared with a literal there (`kind === "…"`, SQL's `kind = '…'`), or a kind's
// name written out, is one kind's rule kept in the engine instead of in its spec.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APPROVAL_KINDS } from "#server/approvals/change-kinds";

const root = path.resolve(__dirname, "../..");

/** The generic steps of making, reading and deciding a change request. */
const ENGINE = [
  "functions/approvals/approvals.db.ts",
  "functions/approvals/change-requests.db.ts",
  "functions/approvals/change-decision.db.ts",
  "functions/approvals/apply-change.db.ts",
];

const COMPARISONS = [
  /\bkind\s*(?:===|!==|==|!=)\s*["'`]/,
  /["'`]\s*(?:===|!==|==|!=)\s*[\w.?]*\bkind\b/,
  /\bkind\s*(?:=|<>|!=|\bIN\s*\()\s*'/i,
  /\bcase\s+["'`]/,
];

/** Each line of `source` that names a kind, as "file:line text". */
function kindNames(file: string, source: string): string[] {
  const kinds = new RegExp(`["'\`](?:${APPROVAL_KINDS.join("|")})["'\`]`);
  return source
    .split("\n")
    .flatMap((line, index) => (COMPARISONS.some((pattern) => pattern.test(line)) || kinds.test(line) ? [`${file}:${index + 1} ${line.trim()}`] : []));
}

describe("the change engine", () => {
  it("finds a kind compared or named in a module", () => {
    expect(kindNames("x.ts", 'if (input.kind === "employee") check();')).toHaveLength(1);
    expect(kindNames("x.ts", 'if ("refund" === request.kind) name();')).toHaveLength(1);
    expect(kindNames("x.ts", "AND NOT (r.kind = 'employee' AND r.target_id = ?)")).toHaveLength(1);
    expect(kindNames("x.ts", "WHERE kind IN ('employee', 'merchant')")).toHaveLength(1);
    expect(kindNames("x.ts", 'const columns = { point_of_sale: 1 }["point_of_sale"];')).toHaveLength(1);
    expect(kindNames("x.ts", "AND NOT (r.kind = ? AND r.target_id = ?)\nconst spec = SPECS[request.kind];")).toEqual([]);
  });

  it("names no kind: each kind's rules are in its spec and its steps", () => {
    const offences = ENGINE.flatMap((file) => kindNames(file, readFileSync(path.join(root, file), "utf8")));
    expect(offences).toEqual([]);
  });
});
