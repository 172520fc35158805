// The core's rules on any reason and any order of refusals, with a kind held in memory (its D1 twin, a throwaway kind
// decided against real D1, is tests/integration/decision-core.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, RuleError } from "../tenancy/tenant";
import { decide, reasonOf, type DecisionKind, type ReasonRule } from "./decide";

const RULE: ReasonRule = { min: 3, tooShort: "Say why.", max: { length: 20, tooLong: "Keep it short." } };

interface Row {
  id: string;
  status: string;
  makerId: string;
}
type Run = { userId: string; mayDecide: boolean; rows: Map<string, Row>; commits: string[] };

const kind: DecisionKind<Run, Row> = {
  kind: "memo",
  pending: "pending",
  messages: {
    mayNotDecide: "Not yours to decide.",
    missing: () => new NotFoundError("memo"),
    alreadyDecided: (status) => `Already ${status}.`,
    own: () => new RuleError("Your own."),
    reason: RULE,
  },
  deciderOf: ({ userId, mayDecide }) => ({ userId, mayDecide }),
  load: async ({ rows }, id) => (rows.has(id) ? { ...rows.get(id)! } : null),
  stateOf: (row) => ({ status: row.status, makerId: row.makerId }),
  async commit({ rows, commits }, row, decided) {
    commits.push(`${row.id}:${decided.status}:${decided.reason ?? ""}`);
    rows.set(row.id, { ...row, status: decided.status });
    return true;
  },
};

const run = (over: Partial<Run> = {}): Run => ({
  userId: "usr_ama",
  mayDecide: true,
  rows: new Map([["m1", { id: "m1", status: "pending", makerId: "usr_esi" }]]),
  commits: [],
  ...over,
});

describe("the reason a rejection gives", () => {
  it("is kept trimmed when within the rule, refused with the rule's words otherwise", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.array(fc.constantFrom(" ", "\n", "\t"), { maxLength: 4 }).map((spaces) => spaces.join("")),
        (text, pad) => {
          const trimmed = `${pad}${text}${pad}`.trim();
          if (trimmed.length < RULE.min) expect(() => reasonOf(RULE, `${pad}${text}${pad}`)).toThrow("Say why.");
          else if (trimmed.length > 20) expect(() => reasonOf(RULE, `${pad}${text}${pad}`)).toThrow("Keep it short.");
          else expect(reasonOf(RULE, `${pad}${text}${pad}`)).toBe(trimmed);
        },
      ),
    );
  });

  it("with no longest, keeps any length (Ɔ, Ɛ, Ŋ and emoji included)", () => {
    const long = "Ɔ Ɛ Ŋ 🇬🇭 ".repeat(80);
    expect(reasonOf({ ...RULE, max: null }, long)).toBe(long.trim());
  });
});

describe("the order of the core's refusals", () => {
  it("says the first rule broken, and writes nothing unless every rule holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          mayDecide: fc.boolean(),
          exists: fc.boolean(),
          status: fc.constantFrom("pending", "approved", "rejected"),
          own: fc.boolean(),
          reason: fc.option(fc.constantFrom("", "  ", "Not agreed", "Ɔkyeame said no"), { nil: undefined }),
        }),
        async (c) => {
          const r = run({
            mayDecide: c.mayDecide,
            rows: new Map(c.exists ? [["m1", { id: "m1", status: c.status, makerId: c.own ? "usr_ama" : "usr_esi" }]] : []),
          });
          const decision = c.reason === undefined ? ({ intent: "approve" } as const) : ({ intent: "reject", reason: c.reason } as const);
          const outcome = decide(kind, r, "m1", decision);
          if (c.reason !== undefined && c.reason.trim().length < 3) await expect(outcome).rejects.toThrow("Say why.");
          else if (!c.mayDecide) await expect(outcome).rejects.toBeInstanceOf(ForbiddenError);
          else if (!c.exists) await expect(outcome).rejects.toBeInstanceOf(NotFoundError);
          else if (c.status !== "pending") await expect(outcome).rejects.toThrow(`Already ${c.status}.`);
          else if (c.own) await expect(outcome).rejects.toThrow("Your own.");
          else await expect(outcome).resolves.toMatchObject({ status: c.reason === undefined ? "approved" : "rejected" });
          const wrote = c.mayDecide && c.exists && c.status === "pending" && !c.own && (c.reason === undefined || c.reason.trim().length >= 3);
          expect(r.commits.length).toBe(wrote ? 1 : 0);
        },
      ),
    );
  });

  it("a commit that another decision beat is refused as decided meanwhile, and nothing follows it", async () => {
    const r = run();
    const followed: string[] = [];
    const beaten: DecisionKind<Run, Row> = {
      ...kind,
      messages: { ...kind.messages, decidedMeanwhile: "Someone else decided it a moment ago." },
      async commit({ rows }, row) {
        rows.set(row.id, { ...row, status: "rejected" });
        return false;
      },
      afterCommit: async (_run, row) => void followed.push(row.id),
    };
    await expect(decide(beaten, r, "m1", { intent: "approve" })).rejects.toThrow("Someone else decided it a moment ago.");
    expect(followed).toEqual([]);
  });
});
