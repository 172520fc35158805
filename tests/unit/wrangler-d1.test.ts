// `wrangler d1 execute` takes no parameters, so scripts/lib/wrangler-d1.ts writes a data module's bound values into its
// SQL: each `?` outside quotes, in order, as a literal that cannot end its string early.
import { describe, expect, it } from "vitest";
import { inlineBindings, sqlLiteral } from "../../scripts/lib/wrangler-d1";

describe("inlineBindings", () => {
  it("writes text quoted with its quotes doubled, numbers as written and null, in placeholder order", () => {
    expect(inlineBindings("INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)", ["Ama O'Neill", 42, null, "'); DROP TABLE users; --"])).toBe(
      "INSERT INTO t (a, b, c, d) VALUES ('Ama O''Neill', 42, NULL, '''); DROP TABLE users; --')",
    );
    expect(sqlLiteral("Ɔkɔdeɛ 🦅")).toBe("'Ɔkɔdeɛ 🦅'");
  });

  it("leaves a question mark inside quotes alone and refuses a count that does not match", () => {
    expect(inlineBindings("SELECT '?' AS q, \"a?\" FROM t WHERE id = ?", ["x"])).toBe("SELECT '?' AS q, \"a?\" FROM t WHERE id = 'x'");
    expect(() => inlineBindings("SELECT ? , ?", ["one"])).toThrow(/More placeholders than values/);
    expect(() => inlineBindings("SELECT ?", ["one", "two"])).toThrow(/2 values for 1 placeholders/);
    expect(() => sqlLiteral(new Uint8Array(2))).toThrow(/cannot take a bound object/);
  });
});
