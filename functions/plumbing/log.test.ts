import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { looksLikeCardNumber } from "../card-numbers/card-numbers";
import * as log from "./log";
import { logError } from "./log";
import { cardNumber, numeralSpelling } from "#tests/support/card-spellings";

let lines: string[] = [];
const spies: ReturnType<typeof vi.spyOn>[] = [];
beforeEach(() => {
  lines = [];
  for (const method of ["log", "warn", "error"] as const) spies.push(vi.spyOn(console, method).mockImplementation((line: string) => void lines.push(line)));
});
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

/** Every text a line holds once read back: each string value and each name, at any depth. */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([name, inner]) => [name, ...textsOf(inner)]);
  return [String(value)];
}

/** A card number as a log line may meet it: plain digits, spaced, or in numerals of another script with marks between. */
const spelledCard = fc.oneof(
  cardNumber.map((digits) => ({ digits, text: digits })),
  cardNumber.map((digits) => ({ digits, text: digits.replace(/(\d{4})(?=\d)/g, "$1 ") })),
  numeralSpelling,
);

/** Where in a field a card number sits: a value, a name, nested in objects and arrays, or a number. */
const placed = fc
  .tuple(
    spelledCard,
    fc.constantFrom("value", "name", "nested", "array", "number"),
    fc.string({ maxLength: 8 }).map((s) => s.replace(/\P{L}/gu, "")),
  )
  .map(([card, where, word]) => {
    const text = `card ${card.text} declined`;
    const number = Number(card.digits);
    const fields: Record<string, unknown> =
      where === "value"
        ? { reason: text }
        : where === "name"
          ? { [text]: word }
          : where === "nested"
            ? { outer: { inner: { [word || "why"]: text } } }
            : where === "array"
              ? { references: [word, text] }
              : Number.isSafeInteger(number)
                ? { amount: number }
                : { reason: text };
    return { card, text, fields };
  });

// Each export of the logger, called with a card number in what it is given; what it wrote (or returned) comes back.
// A new export is added here, or this test fails: none may write a card number.
const EXPORTS: Record<keyof typeof log, (input: { text: string; fields: Record<string, unknown> }) => string[]> = {
  logEvent: ({ text, fields }) => {
    for (const level of ["info", "warn", "error"] as const) {
      log.logEvent(level, "payments.declined", fields);
      log.logEvent(level, text);
    }
    return lines;
  },
  logError: ({ text }) => {
    const encoded = encodeURIComponent(text);
    log.logError("REQ-1", new Request(`https://portal.example.com/payments/${encoded}`), new Error(text));
    log.logError(text, new Request(`https://portal.example.com/?q=${encoded}`), text);
    const error = new Error("declined");
    error.stack = `Error: declined\n    at ${text}`;
    log.logError("REQ-2", new Request("https://portal.example.com/"), error);
    return lines;
  },
  errorText: ({ text }) => [log.errorText(new Error(text)), log.errorText(text)],
};

describe("the one logger", () => {
  it("has an entry above for every export", () => {
    expect(Object.keys(log).sort()).toEqual(Object.keys(EXPORTS).sort());
  });

  it.each(Object.keys(EXPORTS) as (keyof typeof log)[])("%s writes no card number, wherever in a field it sits", (name) => {
    fc.assert(
      fc.property(placed, ({ card, text, fields }) => {
        lines = [];
        const written = EXPORTS[name]({ text, fields });
        expect(written.length).toBeGreaterThan(0);
        for (const line of written) {
          expect(line).not.toContain(card.digits);
          const texts = name === "errorText" ? [line] : textsOf(JSON.parse(line));
          for (const piece of texts) expect(looksLikeCardNumber(piece), piece).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("leaves a line without a card number as it was", () => {
    log.logEvent("warn", "webhooks.attempt_failed", { endpointId: "ep_1", status: 503, name: "Ɔkɔmfo Ɛsi 🎉", at: "2026-12-02T01:02:03.123456789Z" });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: "warn", event: "webhooks.attempt_failed", endpointId: "ep_1", status: 503, name: "Ɔkɔmfo Ɛsi 🎉", at: "2026-12-02T01:02:03.123456789Z" },
    ]);
  });
});

describe("logError", () => {
  it("writes a path and a message holding a card number with their digits masked", () => {
    logError("REQ-1", new Request("https://portal.example.com/api/v1/payments/4111.1111.1111.1111/reversal"), new Error("card ٤١١١ ١١١١ ١١١١ ١١١١ declined"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ path: "/api/v#/payments/####.####.####.####/reversal" });
    expect(looksLikeCardNumber(lines[0]!)).toBe(false);
  });
});
